import { requireRole } from '@framework/sveltekit';
import { ADMIN_ROLE } from '@framework/example-shared/web-example';
import type { PageServerLoad } from './$types';

// Signed out: redirect to sign in. Signed in without the role: 403.
export const load: PageServerLoad = async (event) => {
  const admin = await requireRole(event, ADMIN_ROLE);
  return { email: admin.email, role: ADMIN_ROLE };
};
