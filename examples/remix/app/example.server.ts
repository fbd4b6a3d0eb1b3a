// The example's engine, triggers and registration (shared with the
// SvelteKit example, which shares them with Express and Hono), created once
// when the server starts, and the auth helpers bound to it.
import { createAuthHelpers, createAuthRoute, createWebhookRoute } from '@framework/remix';
import { createWebExample } from '../../sveltekit/src/lib/server/web-example.js';

export { ADMIN_ROLE } from '../../sveltekit/src/lib/server/web-example.js';

export const example = await createWebExample(process.env);

export const { getUser, requireUser, requireRole, withAuth } = createAuthHelpers(example.auth);

/** The resource routes' handlers (route modules re-export them as functions, which React Router can strip from the client build). */
export const authRoute = createAuthRoute(example.auth);
export const webhookRoute = createWebhookRoute(example.triggers);
