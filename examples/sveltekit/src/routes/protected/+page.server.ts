import { requireUser } from '@framework/sveltekit';
import type { PageServerLoad } from './$types';

// Signed out: 302 to /auth/signin?callbackUrl=%2Fprotected.
export const load: PageServerLoad = async (event) => {
  const user = await requireUser(event);
  return { name: user.name ?? user.email ?? 'there' };
};
