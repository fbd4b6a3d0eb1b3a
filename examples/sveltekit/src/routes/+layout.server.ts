import type { LayoutServerLoad } from './$types';

// The signed-in user for the pages (null when signed out); only what they
// show is sent to the browser.
export const load: LayoutServerLoad = ({ locals }) => ({
  user: locals.user ? { email: locals.user.email ?? '', name: locals.user.name ?? null } : null,
});
