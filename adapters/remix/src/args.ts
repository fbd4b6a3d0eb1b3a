/**
 * The loader / action arguments the adapter reads, and the client address.
 * @module
 */
import type { RequestInfo } from '@framework/auth';

/**
 * The part of a loader's or action's arguments the adapter reads. React
 * Router 7's `Route.LoaderArgs` and `LoaderFunctionArgs` fit.
 */
export interface RouteArgs {
  request: Request;
  /** The load context your server passes (`getLoadContext`). */
  context?: unknown;
}

/** How to find the client's IP address in a route's arguments. */
export type ClientIpOption = (args: RouteArgs) => string | undefined;

/**
 * The default {@link ClientIpOption}: `context.ip` or `context.clientAddress`
 * when the server's `getLoadContext` puts the socket address there (the
 * example's server does). Forwarding headers are never read here: rate
 * limits read `X-Forwarded-For` only with `trustProxy`.
 * @example
 * ```ts
 * // server.js: @remix-run/node-fetch-server bridging React Router's handler
 * const handle = createRequestHandler(build, 'production');
 * createRequestListener((request, client) => handle(request, { ip: client.address }));
 * ```
 */
export function contextIp(args: RouteArgs): string | undefined {
  const context = args.context as { ip?: unknown; clientAddress?: unknown } | null | undefined;
  const ip = context?.ip ?? context?.clientAddress;
  return typeof ip === 'string' && ip !== '' ? ip : undefined;
}

/** @internal The `RequestInfo` for `auth.handler`. */
export function requestInfo(args: RouteArgs, clientIp: ClientIpOption = contextIp): RequestInfo {
  const ip = clientIp(args);
  return ip ? { ip } : {};
}
