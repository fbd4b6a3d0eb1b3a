// GET /: `ok`, or (protected) the signed-in user's id through requireUser (401 when signed out).
import type { RequestHandler } from '@sveltejs/kit';
import { requireUser } from '@framework/sveltekit';
import { benchMode } from '../../../bench-auth';

const ok: RequestHandler = () => new Response('ok');
const guarded: RequestHandler = async (event) => new Response((await requireUser(event, { throwError: true })).id);

export const GET = benchMode() === 'protected' ? guarded : ok;
