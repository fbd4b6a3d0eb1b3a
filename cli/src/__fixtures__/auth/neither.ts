// A config module that exports something else: `auth migrate` must name both accepted exports.
export const authConfig = { migrate: 'not a function' };
export default { name: 'app' };
