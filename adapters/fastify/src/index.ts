/**
 * `@framework/fastify`: mounts `@framework/auth` and `@framework/trigger` webhooks in a Fastify 5 app. Node ↔ Web
 * conversion of requests goes through @remix-run/node-fetch-server; responses are sent by Fastify.
 * @module
 */
export { authPlugin, type AuthPluginOptions } from './plugin.js';
export type { FastifyAuthState } from './state.js';
export { requireAuth, authorize, type AuthGuard, type RequireAuthGuardOptions } from './guards.js';
export { authErrorHandler, type AuthErrorHandlerOptions } from './errors.js';
export { securityHeaders } from './security-headers.js';
export { triggerRoutes, type WebhookRuntime } from './triggers.js';
export { toWebRequest, type ToWebRequestOptions } from './request.js';
export { sendWebResponse } from './response.js';
