/**
 * Guards for the development routes (`/dev/outbox` with its magic links, the
 * avatar upload and the inbound notes): on only in development or with
 * `DEV_OUTBOX=1`, and then only for a browser on this machine.
 */
import type { MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';
import { isLoopbackAddress, isLoopbackHost } from '@framework/dashboard';

/**
 * Whether the dev routes are mounted: `option` when given, else when
 * `DEV_OUTBOX=1` or `NODE_ENV` is not `production`.
 */
export function devRoutesEnabled(option: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return option ?? (env.DEV_OUTBOX === '1' || env.NODE_ENV !== 'production');
}

// The loopback checks are the dashboard's (it admits loopback clients only in development); tests: dev-only.test.ts.
export { isLoopbackAddress, isLoopbackHost };

/** The peer address of the TCP connection (never a header); `undefined` when the app is called in-process. */
function peerAddress(c: Parameters<MiddlewareHandler>[0]): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/**
 * Answers 404 unless the request comes straight from this machine: the TCP
 * peer is a loopback address, the Host header names a loopback host (so a
 * DNS-rebinding page cannot read the outbox through the developer's
 * browser), and no proxy forwarded it (`Forwarded`, `X-Forwarded-For`,
 * `X-Real-IP` absent, so a reverse proxy on the same machine does not make
 * remote clients look local).
 */
export const loopbackOnly: MiddlewareHandler = async (c, next) => {
  const forwarded = ['forwarded', 'x-forwarded-for', 'x-real-ip'].some((name) => c.req.header(name) !== undefined);
  if (forwarded || !isLoopbackAddress(peerAddress(c)) || !isLoopbackHost(c.req.header('host'))) return c.notFound();
  await next();
};
