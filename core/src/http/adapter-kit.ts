/**
 * What every Node server adapter (Express, Fastify, a third party's) needs the same way: the request's absolute URL
 * from its parts, refused when a client could forge it, and the stable answer to an error the framework (or one of
 * its plugins) raised outside the kit.
 * @module
 */
import { AUTH_ERRORS } from '../error-codes.js';
import { authError } from '../errors/auth-error.js';
import type { RequestSource } from '../contract/types.js';

/**
 * A `Host` value that is only a host and an optional port (RFC 3986 reg-name, IPv4 or IP-literal): no userinfo,
 * path, query, or spaces.
 */
const HOST_VALUE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~%!$&'()*+,;=]+)(?::\d{1,5})?$/;

const badTarget = (message: string) => authError('INVALID_REQUEST', message);

/**
 * URLs {@link requestUrlOf} parsed, by the text it was given: a route requested again needs no `new URL` (about
 * 1 µs). Only URLs that parsed are kept; at most {@link MAX_REMEMBERED_URLS} of at most
 * {@link MAX_REMEMBERED_URL} characters (under 2 MB), oldest dropped first.
 */
const parsedUrls = new Map<string, string>();
const MAX_REMEMBERED_URLS = 1_000;
const MAX_REMEMBERED_URL = 1_024;

/**
 * The absolute URL of a request from the protocol, the `Host` and the request target as the client sent them.
 * Only origin-form targets are accepted (RFC 9112 §3.2.1: a path starting with `/`); an absolute-form target
 * (`POST http://evil.example/auth/…`), a `Host` with anything but a host and a port, or a URL that does not parse is
 * refused.
 * @param parts `protocol` (`http` or `https`), `host` (`undefined` when the client sent none: `localhost`; an empty one is refused), `target`.
 * @throws AuthError `INVALID_REQUEST` (400).
 * @example
 * ```ts
 * const url = requestUrlOf({ protocol: req.protocol, host: req.headers.host, target: req.originalUrl });
 * ```
 */
export function requestUrlOf(parts: { protocol: string; host: string | undefined; target: string }): string {
  if (!parts.target.startsWith('/')) throw badTarget('The request target must be a path');
  const host = parts.host ?? 'localhost';
  if (!HOST_VALUE.test(host)) throw badTarget('The Host header is malformed');
  const given = `${parts.protocol}://${host}${parts.target}`;
  const known = parsedUrls.get(given);
  if (known !== undefined) return known;
  let href: string;
  try {
    href = new URL(given).href;
  } catch {
    throw badTarget('The request URL is malformed');
  }
  if (given.length <= MAX_REMEMBERED_URL) {
    if (parsedUrls.size >= MAX_REMEMBERED_URLS) parsedUrls.delete(parsedUrls.keys().next().value!);
    parsedUrls.set(given, href);
  }
  return href;
}

/** The last `Host` value {@link checkRequestTarget} accepted: a server is mostly asked under one name. */
let lastAcceptedHost: string | undefined;

/**
 * Refuses now what {@link requestUrlOf} would refuse once the URL is built, without building it: a target that is
 * not origin-form (RFC 9112 §3.2.1) or a `Host` with anything but a host and a port, or whose URL does not parse (a
 * port above 65535). For adapters that build the URL only if something reads the Web `Request`, so that a forged
 * `Host` is answered 400 on every route as before. The last accepted `Host` is remembered: the common request costs
 * one string comparison.
 * @param host the `Host` header (`undefined` when the client sent none: `localhost`).
 * @param target the request target as the client sent it.
 * @throws AuthError `INVALID_REQUEST` (400).
 * @example
 * ```ts
 * checkRequestTarget(req.headers.host, req.originalUrl);
 * const request = bodylessRequest(() => requestUrlOf({ protocol: req.protocol, host, target }), req.method, headers);
 * ```
 */
export function checkRequestTarget(host: string | undefined, target: string): void {
  if (!target.startsWith('/')) throw badTarget('The request target must be a path');
  if (host === undefined || host === lastAcceptedHost) return;
  requestUrlOf({ protocol: 'http', host, target: '/' });
  lastAcceptedHost = host;
}

/**
 * The `Request` of a `RequestSource`: the request itself, or what its builder builds.
 * @internal
 */
export const requestOf = (source: RequestSource): Request => (typeof source === 'function' ? source() : source);

/** Methods a Web `Request` refuses to carry (the Fetch standard's forbidden methods). */
const FORBIDDEN_METHOD = /^(?:CONNECT|TRACE|TRACK)$/i;

/**
 * A builder of the body-less Web `Request` of a server request, for `auth.openScope` / `auth.run` (a
 * `RequestSource`): the method is checked now, the `Request` (and its headers, from `headers()`) is built on the
 * first call only and kept. Adapters on Node frameworks pass it with the raw `Cookie` header in `info.cookie`, so
 * a session read by cookie builds no `Request` (about 10 µs of CPU and its garbage on Node 20).
 * @param url the absolute URL, checked already (see {@link requestUrlOf}), or a function giving it on the first call
 *   (the target checked already, see {@link checkRequestTarget}).
 * @param method the request method.
 * @param headers the request's headers, read on the first call.
 * @throws AuthError `INVALID_REQUEST` (400) for a method a Web `Request` cannot carry (`CONNECT`, `TRACE`, `TRACK`).
 * @example
 * ```ts
 * const request = bodylessRequest(requestUrlOf({ protocol, host, target }), req.method, () => createHeaders(req));
 * const scope = await auth.openScope(request, { ip, cookie: req.headers.cookie ?? null });
 * ```
 */
export function bodylessRequest(
  url: string | (() => string),
  method: string,
  headers: () => HeadersInit,
): () => Request {
  if (FORBIDDEN_METHOD.test(method))
    throw authError('INVALID_REQUEST', 'The request cannot be represented as a Web Request');
  let built: Request | undefined;
  return () => (built ??= new Request(typeof url === 'string' ? url : url(), { method, headers: headers() }));
}

/** The kit's code of each 4xx status a framework or its plugins raise; any other 4xx is `INVALID_REQUEST`. */
const CLIENT_CODES: Readonly<Record<number, keyof typeof AUTH_ERRORS>> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/**
 * The answer to an error raised outside the kit (a body parser's 413, a framework's 404, a plugin's throw): its
 * 4xx status (`status` or `statusCode`, as http-errors and Fastify set them) with the kit's stable code for it, or
 * 500 `INTERNAL_ERROR`. The message is a fixed phrase per class, never the error's own message or stack.
 * @example
 * ```ts
 * const { status, code, message } = clientErrorOf(error);
 * res.status(status).json({ error: { code, message } });
 * ```
 */
export function clientErrorOf(error: unknown): { status: number; code: string; message: string } {
  const carried = error as { status?: unknown; statusCode?: unknown } | null;
  const raw = carried?.status ?? carried?.statusCode;
  const status = typeof raw === 'number' && Number.isInteger(raw) && raw >= 400 && raw < 500 ? raw : 500;
  if (status >= 500) return { status, code: 'INTERNAL_ERROR', message: 'Internal Server Error' };
  return { status, code: CLIENT_CODES[status] ?? 'INVALID_REQUEST', message: 'The request was refused' };
}

/**
 * `response` with the Set-Cookie `lines` appended verbatim (attributes kept; a line it already carries is not
 * repeated). When its headers are immutable (`Response.redirect`, a fetched response) the answer is a copy with
 * the same status, headers and body stream. For adapters whose framework hands back a `Response` (SvelteKit, Astro,
 * Next.js) and the kit's refreshed or cleared session cookies must ride on it.
 * @example
 * ```ts
 * const response = await resolve(event);
 * return withSetCookies(response, scope.headers.getSetCookie());
 * ```
 */
export function withSetCookies(response: Response, lines: readonly string[]): Response {
  if (lines.length === 0) return response;
  const add = (target: Response) => {
    const present = new Set(target.headers.getSetCookie());
    for (const line of lines) if (!present.has(line)) target.headers.append('set-cookie', line);
    return target;
  };
  try {
    return add(response);
  } catch {
    return add(new Response(response.body, response));
  }
}
