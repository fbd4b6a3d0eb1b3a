/**
 * `@framework/express`: mounts `@framework/auth` and `@framework/trigger`
 * webhooks in an Express 5 (or 4) app. Node ↔ Web conversion goes through
 * @remix-run/node-fetch-server; nothing else is converted.
 * @module
 */
export { authRouter } from './router.js';
export { authSession, type AuthSessionOptions, type ExpressAuthState } from './middleware.js';
export { authorize } from './authorize.js';
export { authErrorHandler } from './errors.js';
export { finalErrorHandler, type FinalErrorHandlerOptions } from './final-error.js';
export { securityHeaders } from './security-headers.js';
export { triggerRouter, type WebhookRuntime } from './triggers.js';
export { toWebRequest, type ToWebRequestOptions } from './request.js';
export { sendWebResponse } from './response.js';
