/** A module without a default-exported handler. */
export const handle = () => {};
