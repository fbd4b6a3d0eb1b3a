import type { LayoutServerLoad } from './$types';

// The signed-in user for the navigation bar (null when signed out).
export const load: LayoutServerLoad = ({ locals }) => ({ user: locals.user });
