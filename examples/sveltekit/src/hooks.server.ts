// The page security headers around everything, webhooks first (they need
// the raw body), then the auth routes and the session of every request. Both take a function, so the database is opened
// on the first request rather than while building.
import { sequence } from '@sveltejs/kit/hooks';
import type { ServerInit } from '@sveltejs/kit';
import { building } from '$app/environment';
import { authHandle, securityHeaders, triggerHandle } from '@framework/sveltekit';
import { getExample } from '$lib/server/example';

export const init: ServerInit = async () => {
  await getExample();
};

export const handle = sequence(
  securityHeaders(),
  triggerHandle(async () => (await getExample()).triggers),
  authHandle(async () => (await getExample()).auth, { building }),
);
