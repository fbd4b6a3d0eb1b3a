/**
 * Guards for the development routes (`/dev/outbox` with its magic links, the
 * avatar upload and the inbound notes): on only in development or with
 * `DEV_OUTBOX=1`, and then only for a browser on this machine.
 */
import type { MiddlewareHandler } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * Whether the dev routes are mounted: `option` when given, else when
 * `DEV_OUTBOX=1` or `NODE_ENV` is not `production`.
 */
export function devRoutesEnabled(option: boolean | undefined, env: NodeJS.ProcessEnv = process.env): boolean {
  return option ?? (env.DEV_OUTBOX === '1' || env.NODE_ENV !== 'production');
}

/** `true` for an IPv4 loopback address (127.0.0.0/8), `::1` in any spelling, or an IPv4 loopback address mapped into IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(address)) {
    const octets = address.split('.').map(Number);
    return octets[0] === 127 && octets.every((o) => o <= 255);
  }
  if (!address.includes(':')) return false;
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname; // the WHATWG URL parser compresses IPv6
  } catch {
    return false;
  }
  return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canonical);
}

/** `true` when the Host header names this machine: `localhost`, `*.localhost`, a loopback IPv4 address or `[::1]`. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.toLowerCase().replace(/:\d+$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return isLoopbackAddress(name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name);
}

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
