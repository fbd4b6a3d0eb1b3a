// The example's engine, triggers and registration (from examples/shared, as
// in the SvelteKit, Express and Hono examples), created once
// when the server starts, and the auth helpers bound to it.
import { createAuthHelpers, createAuthRoute, createWebhookRoute } from '@framework/remix';
import { createWebExample } from '@framework/example-shared/web-example';

export { ADMIN_ROLE } from '@framework/example-shared/web-example';

export const example = await createWebExample(process.env);

export const { getUser, requireUser, requireRole, withAuth } = createAuthHelpers(example.auth);

/**
 * The resource routes' handlers (route modules re-export them as functions, which React Router can strip from
 * the client build).
 */
export const authRoute = createAuthRoute(example.auth);
export const webhookRoute = createWebhookRoute(example.triggers);
