/**
 * Fastify request → Web `Request`, through @remix-run/node-fetch-server.
 * @module
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHeaders, createRequest } from '@remix-run/node-fetch-server';
import { AuthError, bodylessRequest, checkRequestTarget, requestUrlOf } from '@framework/auth';

/** Options of {@link toWebRequest}. */
export interface ToWebRequestOptions {
  /**
   * Carry the body. Default true: the body streams from `request.raw`, which must still be unread (the auth routes
   * and `triggerRoutes` register a content-type parser that leaves it alone). False gives a body-less Request and
   * leaves the Node stream untouched.
   */
  body?: boolean;
}

/**
 * The absolute URL of the request: `request.protocol` + `request.host` (both honour Fastify's `trustProxy`) + the
 * request target as the client sent it. Only origin-form targets are accepted (RFC 9112 §3.2.1: a path starting
 * with `/`); an absolute-form target (`POST http://evil.example/auth/…`), a `Host` with anything but a host and
 * port, or a URL that does not parse is refused.
 * @throws AuthError `INVALID_REQUEST` (400).
 */
export function requestUrl(request: FastifyRequest): string {
  return requestUrlOf({ protocol: request.protocol, host: request.host || undefined, target: request.raw.url ?? '/' });
}

/** The path of the request target, without query or fragment. */
export function requestPath(request: FastifyRequest): string {
  const url = request.raw.url ?? '/';
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/**
 * Converts a Fastify request into a Web `Request` with the URL of {@link requestUrl}, the headers of
 * `request.raw` and (unless `{body: false}`, or for GET and HEAD) its body streaming from `request.raw`, so the
 * kit's streaming limit (`readFormBody`, 64 KiB by default) is what bounds it. The Request's signal aborts when
 * the client goes away.
 *
 * @param request the Fastify request; its body must not have been parsed when `body` is true.
 * @param reply the Fastify reply; its close aborts the Request's signal.
 * @param options {@link ToWebRequestOptions}: `body` (default true).
 * @throws AuthError `INVALID_REQUEST` (400) for a malformed `Host`, a target that is not origin-form (see
 *   {@link requestUrl}), or a method a Web `Request` cannot carry (`TRACE`, `CONNECT`).
 * @example
 * ```ts
 * app.get('/register', async (request, reply) => {
 *   const { token, headers } = await auth.csrf.issue(toWebRequest(request, reply, { body: false }));
 *   reply.header('set-cookie', headers.getSetCookie());
 *   return registerPage(token);
 * });
 * ```
 */
export function toWebRequest(request: FastifyRequest, reply: FastifyReply, options: ToWebRequestOptions = {}): Request {
  const url = requestUrl(request);
  const method = request.raw.method ?? 'GET';
  try {
    if (options.body === false || method === 'GET' || method === 'HEAD')
      return new Request(url, { method, headers: createHeaders(request.raw) });
    const { host, protocol } = new URL(url);
    return createRequest(request.raw, reply.raw, { host, protocol });
  } catch {
    throw new AuthError('The request cannot be represented as a Web Request', { code: 'INVALID_REQUEST', status: 400 });
  }
}

/**
 * The body-less Web Request of `request` as a builder for `auth.openScope` / `auth.run` (a `RequestSource`): the
 * target, the `Host` and the method are checked now, so what {@link toWebRequest} refuses throws here; the URL, the
 * `Headers` and the `Request` are built on the first call only (the session read by cookie never calls it).
 * @throws AuthError `INVALID_REQUEST` (400), as {@link toWebRequest}.
 * @internal
 */
export function lazyWebRequest(request: FastifyRequest): () => Request {
  checkRequestTarget(request.host || undefined, request.raw.url ?? '/');
  return bodylessRequest(
    () => requestUrl(request),
    request.raw.method ?? 'GET',
    () => createHeaders(request.raw),
  );
}

/**
 * A body-less Request with the headers of `request` and a fixed URL, for reading only headers (content
 * negotiation) when the real URL may not be buildable.
 */
export function headersOnlyRequest(request: FastifyRequest): Request {
  try {
    return new Request('http://localhost/', { headers: createHeaders(request.raw) });
  } catch {
    return new Request('http://localhost/');
  }
}
