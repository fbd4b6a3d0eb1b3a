// The registration page shared with the Hono and Express examples (the same
// HTML and checks), served as an endpoint.
import { getExample } from '$lib/server/example';
import type { RequestHandler } from './$types';

export const GET: RequestHandler = async ({ request }) => (await getExample()).registerForm(request);

export const POST: RequestHandler = async ({ request, getClientAddress }) => (await getExample()).register(request, { ip: getClientAddress() });
