/**
 * h3 event → Web `Request`, through @remix-run/node-fetch-server for bodies.
 * @module
 */
import type { H3Event } from 'h3';
import { getRequestIP, getRequestWebStream } from 'h3';
import { createHeaders, createRequest } from '@remix-run/node-fetch-server';
import { AuthError, requestUrlOf, type RequestInfo } from '@framework/auth';

/** How the adapter reads the client's origin and address. */
export interface ProxyOptions {
  /**
   * Believe `X-Forwarded-Proto`, `X-Forwarded-Host` and the first `X-Forwarded-For` address. Default false: the
   * origin is the socket's protocol and the `Host` header, the address the socket's. Turn it on only behind a
   * proxy that sets these headers itself (a client can send any of them).
   */
  trustProxy?: boolean;
}

/** Options of {@link toWebRequest}. */
export interface ToWebRequestOptions extends ProxyOptions {
  /** Carry the body (default true). The body must still be unread; false leaves the Node stream untouched. */
  body?: boolean;
}

/** A header as h3's `getRequestHeader` gives it: repeated values (a list) joined with `, `, empty ones dropped. */
function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.filter(Boolean).join(', ') : value;
}

/**
 * The path of an absolute URL that `new URL` serialized (`href`): from the first `/` after `://` up to the query
 * or fragment, without parsing it again. The host part of a serialized URL holds no `/`, `?` or `#`.
 * @internal
 */
export function pathnameOfHref(href: string): string {
  const start = href.indexOf('/', href.indexOf('://') + 3);
  if (start < 0) return '/';
  let end = href.length;
  const query = href.indexOf('?', start);
  if (query >= 0) end = query;
  const hash = href.indexOf('#', start);
  if (hash >= 0 && hash < end) end = hash;
  return href.slice(start, end);
}

const invalid = (message: string) => new AuthError(message, { code: 'INVALID_REQUEST', status: 400 });

/**
 * The absolute URL of the request: protocol + `Host` (or, with `trustProxy`, the forwarded ones) + the request
 * target as the client sent it. Only origin-form targets are accepted (a path starting with `/`).
 * @throws AuthError `INVALID_REQUEST` (400) for an absolute-form target or a malformed `Host`.
 */
export function requestUrl(event: H3Event, options: ProxyOptions = {}): string {
  const req = event.node.req as {
    originalUrl?: string;
    url?: string;
    socket?: { encrypted?: boolean };
    headers: Record<string, string | string[] | undefined>;
  };
  // Node's own headers (lower-case names), not h3's getRequestHeader: that copies every header into a new object
  // on each call. Node joins repeated Host and X-Forwarded-* lines into one string, as getRequestHeader does.
  const forwardedProto = options.trustProxy ? headerValue(req.headers['x-forwarded-proto']) : undefined;
  const protocol = forwardedProto === 'https' || req.socket?.encrypted ? 'https' : 'http';
  const forwardedHost = options.trustProxy ? headerValue(req.headers['x-forwarded-host']) : undefined;
  const host = forwardedHost ?? headerValue(req.headers.host);
  return requestUrlOf({ protocol, host, target: req.originalUrl ?? req.url ?? '/' });
}

/** The client's address: the socket's, or with `trustProxy` the first `X-Forwarded-For` entry. */
export function clientInfo(event: H3Event, options: ProxyOptions = {}): RequestInfo {
  const ip = getRequestIP(event, { xForwardedFor: options.trustProxy === true });
  return ip ? { ip } : {};
}

/**
 * Converts an h3 event into a Web `Request` with the URL of {@link requestUrl}, the request's headers and (for
 * methods with a body, unless `{body: false}`) its body streaming from the Node request with back-pressure, so the
 * kit's own limit (`readFormBody`, 64 KiB) is what bounds it. Inside Nitro's in-process fetch (no socket) the body
 * comes from h3's `getRequestWebStream`.
 *
 * @param event the h3 event; its body must not have been read when `body` is true.
 * @param options {@link ToWebRequestOptions}: `body` (default true), `trustProxy` (default false).
 * @throws AuthError `INVALID_REQUEST` (400) for a malformed `Host`, a target that is not a path, or a method a Web
 *   `Request` cannot carry (`TRACE`, `CONNECT`).
 * @example
 * ```ts
 * import { defineEventHandler } from 'h3';
 * import { toWebRequest } from '@framework/nuxt';
 * import { auth } from '../utils/auth';
 *
 * export default defineEventHandler(async (event) => {
 *   const { token, headers } = await auth.csrf.issue(toWebRequest(event, { body: false }));
 *   for (const line of headers.getSetCookie()) event.node.res.appendHeader('set-cookie', line);
 *   return { csrfToken: token };
 * });
 * ```
 */
export function toWebRequest(event: H3Event, options: ToWebRequestOptions = {}): Request {
  const url = requestUrl(event, options);
  const method = event.node.req.method ?? 'GET';
  try {
    const headers = createHeaders(event.node.req);
    if (options.body === false || method === 'GET' || method === 'HEAD') return new Request(url, { method, headers });
    if ('__unenv__' in event.node.req) {
      const body = getRequestWebStream(event);
      return new Request(url, { method, headers, ...(body ? { body, duplex: 'half' } : {}) } as RequestInit);
    }
    const { host, protocol } = new URL(url);
    return createRequest(event.node.req, event.node.res, { host, protocol });
  } catch {
    throw invalid('The request cannot be represented as a Web Request');
  }
}

/** A body-less Request with the event's headers and a fixed URL, to negotiate an error's format. */
export function headersOnlyRequest(event: H3Event): Request {
  try {
    return new Request('http://localhost/', { headers: createHeaders(event.node.req) });
  } catch {
    return new Request('http://localhost/');
  }
}
