// GET / (an endpoint): `ok`, or (protected) the signed-in user's id through the adapter's requireAuth (the kit's
// 401 when signed out).
import type { APIRoute } from 'astro';
import { requireAuth } from '@framework/astro';
import { benchMode } from '../../../bench-auth';

export const prerender = false;

export const GET: APIRoute =
  benchMode() === 'protected'
    ? (context) => new Response(requireAuth(context, { throwError: true }).id)
    : () => new Response('ok');
