/**
 * `authErrorHandler(auth)`: a Fastify error handler that answers the kit's errors as the kit does and never
 * shows a stack or an error's message to the client.
 * @module
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { clientErrorOf, type Auth } from '@framework/auth';
import { headersOnlyRequest } from './request.js';
import { sendWebResponse } from './response.js';

/** Options of {@link authErrorHandler}. */
export interface AuthErrorHandlerOptions {
  /**
   * Where server errors (5xx) go, with their stack. Default `request.log.error` (Fastify's logger; silent unless
   * the app enables `logger`). Client errors (4xx) are not logged.
   */
  log?: (error: unknown, request: FastifyRequest) => void;
}

/** JSON unless the client asks for text (`text/html`, `text/plain`) before any JSON type. */
function wantsJson(request: FastifyRequest): boolean {
  const accept = String(request.headers.accept ?? '').toLowerCase();
  const json = accept.search(/json|\*\/\*/);
  const text = accept.search(/text\/(?:html|plain)/);
  return text === -1 || (json !== -1 && json < text);
}

/**
 * A Fastify error handler (`app.setErrorHandler`; `authPlugin` installs it unless `errorHandler: false`):
 * - what `requireAuth()` and the other helpers of `@framework/auth` throw is answered as the kit answers it
 *   (`auth.toResponse`): `AuthRedirect` → 302/303; `UnauthenticatedError` → 401, `ForbiddenError` → 403, other
 *   `AuthError`s → their status and stable code, as `{error: {code, message}}` JSON for API clients and the
 *   error page for browsers. It reads only the request's headers, never converts the request again, so it also
 *   answers the 400 `INVALID_REQUEST` of a request whose URL could not be built;
 * - any other error gets its 4xx status (Fastify's own: 413 `PAYLOAD_TOO_LARGE` past `bodyLimit`, 415
 *   `UNSUPPORTED_MEDIA_TYPE`, 400 `INVALID_REQUEST` for malformed JSON or a failed schema; a plugin's 401, 403,
 *   404, 405 or 429 get `UNAUTHENTICATED`, `FORBIDDEN`, `NOT_FOUND`, `METHOD_NOT_ALLOWED`, `RATE_LIMITED`, any
 *   other 4xx `INVALID_REQUEST`) or 500 `INTERNAL_ERROR`, as `{error: {code, message}}` JSON or plain text with a
 *   fixed message per status: never the error's message or stack, whatever `NODE_ENV` says (Fastify's default
 *   handler sends `error.message`).
 *
 * Headers already set on the reply (session cookies, security headers) stay. An error after the response
 * started closes the connection.
 *
 * @param auth the engine from `createAuth`.
 * @param options {@link AuthErrorHandlerOptions}: `log` for 5xx errors.
 * @example
 * ```ts
 * await app.register(authPlugin, { auth, errorHandler: false });
 * app.setErrorHandler((error, request, reply) => {
 *   if (error.code === 'MY_APP_ERROR') return reply.code(409).send({ conflict: true });
 *   return handleAuthErrors(error, request, reply);
 * });
 * const handleAuthErrors = authErrorHandler(auth);
 * ```
 */
export function authErrorHandler(
  auth: Auth,
  options: AuthErrorHandlerOptions = {},
): (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => void {
  const log = options.log ?? ((error: unknown, request: FastifyRequest) => request.log.error({ err: error }));
  return (error, request, reply) => {
    if (reply.sent || reply.raw.headersSent) {
      log(error, request);
      reply.raw.destroy();
      return;
    }
    const response = auth.toResponse(error, headersOnlyRequest(request));
    if (response) {
      sendWebResponse(reply, response);
      return;
    }
    const { status, code, message } = clientErrorOf(error);
    if (status >= 500) log(error, request);
    reply.code(status).header('cache-control', 'no-store').header('x-content-type-options', 'nosniff');
    if (wantsJson(request))
      reply.type('application/json; charset=utf-8').send(JSON.stringify({ error: { code, message } }));
    else reply.type('text/plain; charset=utf-8').send(`${status} ${code}: ${message}`);
  };
}
