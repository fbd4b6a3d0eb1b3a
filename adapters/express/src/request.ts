/**
 * Express request → Web `Request`, through @remix-run/node-fetch-server.
 * @internal
 * @module
 */
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { createHeaders, createRequest } from '@remix-run/node-fetch-server';
import { bodylessRequest, checkRequestTarget, requestUrlOf } from '@framework/auth';
import { reserialise } from './body.js';

/** Options of {@link toWebRequest}. */
export interface ToWebRequestOptions {
  /** Carry the body. Default true. False gives a body-less Request and leaves the Node stream untouched. */
  body?: boolean;
}

export function requestUrl(req: ExpressRequest): string {
  return requestUrlOf({ protocol: req.protocol, host: req.headers.host, target: req.originalUrl ?? req.url });
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
 * The body-less Web Request of `req` as a builder for `auth.openScope` / `auth.run` (a `RequestSource`): the target
 * and `Host` are checked now, so a malformed `Host` or target throws here as in {@link toWebRequest}; the URL, the
 * `Headers` and the `Request` are built on the first call only (the session read by cookie never calls it).
 * @throws AuthError `INVALID_REQUEST` (400), as {@link requestUrl}, and for a method a Web `Request` cannot carry.
 * @internal
 */
export function lazyWebRequest(req: ExpressRequest): () => Request {
  checkRequestTarget(req.headers.host, req.originalUrl ?? req.url);
  return bodylessRequest(
    () => requestUrl(req),
    req.method,
    () => createHeaders(req),
  );
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
