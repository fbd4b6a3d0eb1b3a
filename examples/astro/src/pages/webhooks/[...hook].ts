// The signed webhook (POST /webhooks/demo), verified by the trigger runtime over the exact bytes.
import type { APIRoute } from 'astro';
import { getExample } from '../../example';

export const ALL: APIRoute = async ({ request }) =>
  (await (await getExample()).triggers.fetch(request)) ?? new Response('Not Found', { status: 404 });
