/**
 * The engine a Next.js app hands the adapter, and the connection facts it adds to a request.
 * @module
 */
import type { Auth, RequestInfo } from '@framework/auth';

/**
 * The engine from `createAuth`, or a function resolving it. Next.js evaluates route modules while it builds
 * (`next build` collects each route's config), so an engine that opens a database or starts background work can
 * be created lazily, on the first request: pass `() => getAuth()`.
 */
export type AuthSource = Auth | (() => Auth | Promise<Auth>);

/**
 * Where the client's IP address is, given the request (rate limits key on it). Next.js hands route handlers no
 * socket address; `next start` fills `X-Forwarded-For` only when the client sent none, so that header is the
 * client's word unless a server or proxy in front of Next.js overwrites it. Default: no address (the limits then
 * count per account only).
 * @example
 * ```ts
 * // behind a server that overwrites X-Forwarded-For with the socket address
 * const clientIp: ClientIpOption = (request) => request.headers.get('x-forwarded-for') ?? undefined;
 * ```
 */
export type ClientIpOption = (request: Request) => string | undefined;

/** Options every entry point of the adapter takes. */
export interface NextAuthOptions {
  /** See {@link ClientIpOption}. */
  clientIp?: ClientIpOption;
}

/** @internal Resolves an {@link AuthSource}, calling a function at most once. */
export function engineOf(source: AuthSource): () => Promise<Auth> {
  if (typeof source !== 'function') {
    const ready = Promise.resolve(source);
    return () => ready;
  }
  let pending: Promise<Auth> | undefined;
  return () => {
    pending ??= Promise.resolve()
      .then(source)
      .catch((error: unknown) => {
        pending = undefined; // a failed start is tried again on the next request
        throw error;
      });
    return pending;
  };
}

/** @internal The `RequestInfo` for `auth.handler` / `auth.openScope`. */
export function requestInfo(request: Request, clientIp: ClientIpOption | undefined): RequestInfo {
  const ip = clientIp?.(request);
  return ip ? { ip } : {};
}
