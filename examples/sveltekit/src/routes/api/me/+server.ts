import { json } from '@sveltejs/kit';
import { requireUser } from '@framework/sveltekit';
import type { RequestHandler } from './$types';

// Signed out: 401 (JSON clients get the kit's {error: {code, message}}).
export const GET: RequestHandler = async (event) => {
  const user = await requireUser(event, { throwError: true });
  return json({ id: user.id, email: user.email ?? null, name: user.name ?? null, role: user.role ?? null });
};
