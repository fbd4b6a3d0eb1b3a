/**
 * Express request → Web `Request`, through @remix-run/node-fetch-server.
 * @internal
 * @module
 */
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { createHeaders, createRequest } from '@remix-run/node-fetch-server';
import { AuthError } from '@framework/auth';
import { reserialise } from './body.js';

/** Options of {@link toWebRequest}. */
export interface ToWebRequestOptions {
  /** Carry the body. Default true. False gives a body-less Request and leaves the Node stream untouched. */
  body?: boolean;
}

/**
 * A `Host` value that is only a host and an optional port (RFC 3986 reg-name, IPv4 or IP-literal): no
 * userinfo, path, query, or spaces.
 */
const HOST_VALUE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%!$&'()*+,;=]+)(?::\d{1,5})?$/;

/** The 400 the adapter answers when a request's URL cannot be built. Code `INVALID_REQUEST`. */
function badTarget(message: string): AuthError {
  return new AuthError(message, { code: 'INVALID_REQUEST', status: 400 });
}

/**
 * The absolute URL of the request as the client sent it (`originalUrl`, so
 * mounting prefixes stay). Only origin-form targets are accepted (RFC 9112
 * §3.2.1: a path starting with `/`); an absolute-form target
 * (`POST http://evil.example/auth/…`), a `Host` with anything but a host and
 * port, or a URL that does not parse is refused.
 * @throws AuthError `INVALID_REQUEST` (400); `authErrorHandler` answers it.
 */
export function requestUrl(req: ExpressRequest): string {
  const target = req.originalUrl ?? req.url;
  if (!target.startsWith('/')) throw badTarget('The request target must be a path');
  const host = req.headers.host ?? 'localhost';
  if (!HOST_VALUE.test(host)) throw badTarget('The Host header is malformed');
  try {
    return new URL(`${req.protocol}://${host}${target}`).href;
  } catch {
    throw badTarget('The request URL is malformed');
  }
}

/** The path of the request as the client sent it. */
export function requestPath(req: ExpressRequest): string {
  const url = req.originalUrl ?? req.url;
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** True when something (a body parser) has read the request stream already. */
export function bodyConsumed(req: ExpressRequest): boolean {
  return req.readableEnded || (req.complete && !req.readable);
}

/**
 * Converts an Express request into a Web `Request` with the original URL.
 * The body streams from Node through node-fetch-server's `createRequest`; if
 * a body parser has read it already, `req.rawBody` (exact bytes) or
 * `req.body` is serialised back in its content type, and the length and
 * encoding headers are dropped. With `{body: false}` the Node stream is left
 * alone (for reading headers and cookies only).
 *
 * @param req the Express request; `req.protocol` (with Express's `trust
 *   proxy` setting) and the `Host` header give the origin.
 * @param res the Express response; its close aborts the Request's signal.
 * @param options {@link ToWebRequestOptions}: `body` (default true).
 * @throws AuthError `INVALID_REQUEST` (400) for a malformed `Host` or a
 *   target that is not origin-form (see {@link requestUrl}).
 * @example
 * ```ts
 * app.get('/register', async (req, res) => {
 *   const { token, headers } = await auth.csrf.issue(toWebRequest(req, res, { body: false }));
 *   for (const cookie of headers.getSetCookie()) res.append('Set-Cookie', cookie);
 *   res.send(registerPage(token));
 * });
 * ```
 */
export function toWebRequest(req: ExpressRequest, res: ExpressResponse, options: ToWebRequestOptions = {}): Request {
  const url = requestUrl(req);
  const method = req.method;
  const bodyless = method === 'GET' || method === 'HEAD';
  if (options.body === false || (!bodyless && bodyConsumed(req))) {
    const headers = createHeaders(req);
    if (options.body === false || bodyless) return new Request(url, { method, headers });
    const { body, replaceType } = reserialise(
      req as { body?: unknown; rawBody?: unknown },
      headers.get('content-type') ?? '',
    );
    for (const name of ['content-length', 'content-encoding', 'transfer-encoding']) headers.delete(name);
    if (replaceType) headers.delete('content-type');
    return new Request(url, { method, headers, body });
  }
  const streamed = createRequest(req, res);
  if (streamed.url === url) return streamed;
  return new Request(url, {
    method,
    headers: streamed.headers,
    body: streamed.body,
    signal: streamed.signal,
    duplex: 'half',
  } as RequestInit);
}

/**
 * A body-less Request with the headers of `req` and a fixed URL, for reading
 * only headers (content negotiation) when the real URL may not be buildable.
 */
export function headersOnlyRequest(req: ExpressRequest): Request {
  try {
    return new Request('http://localhost/', { headers: createHeaders(req) });
  } catch {
    return new Request('http://localhost/');
  }
}
