/**
 * Finding the client's address: the connection's peer, or, behind trusted
 * proxies only, the right entry of `X-Forwarded-For`.
 * @module
 */
import { AuthConfigError } from '../errors.js';
import { cidrContains, parseCidr, type Cidr } from './cidr.js';
import { formatIp, parseIp, stripAddressDecorations, type ParsedIp } from './ip.js';
import type { TrustProxy } from './types.js';

/** At most this many `X-Forwarded-For` entries (from the right) are examined. */
const MAX_HOPS = 64;

/** Resolves the client address of a request, or null when it cannot be known. */
export type ClientIpResolver = (request: Request, peer?: string) => ParsedIp | null;

function forwardedChain(request: Request): string[] {
  const header = request.headers.get('x-forwarded-for');
  if (!header) return [];
  const entries = header.split(',');
  return entries.slice(Math.max(0, entries.length - MAX_HOPS));
}

const parseEntry = (entry: string | undefined): ParsedIp | null =>
  entry === undefined ? null : parseIp(stripAddressDecorations(entry));

function byHopCount(hops: number): ClientIpResolver {
  return (request, peer) => {
    const peerIp = peer === undefined ? null : parseEntry(peer);
    const chain = forwardedChain(request);
    if (chain.length === 0) return peerIp;
    // [...chain, peer]: the peer is the nearest proxy; the client sits `hops` entries to its left,
    // or is the leftmost entry when fewer hops were recorded.
    const index = Math.max(0, chain.length - hops);
    return parseEntry(chain[index]);
  };
}

function byCidrs(cidrs: readonly Cidr[]): ClientIpResolver {
  const trusted = (ip: ParsedIp) => cidrs.some((c) => cidrContains(c, ip));
  return (request, peer) => {
    const peerIp = peer === undefined ? null : parseEntry(peer);
    if (!peerIp || !trusted(peerIp)) return peerIp;
    const chain = forwardedChain(request);
    let current = peerIp;
    for (let i = chain.length - 1; i >= 0; i--) {
      const next = parseEntry(chain[i]);
      // Garbage to the left of trusted hops: stop at the last proxy that vouched for something.
      if (!next) return current;
      current = next;
      if (!trusted(next)) return next;
    }
    return current;
  };
}

/**
 * Builds the resolver for a `trustProxy` setting.
 * @throws AuthConfigError (`INVALID_CONFIG`) when `trustProxy` is not a
 *   non-negative integer or a list of valid CIDRs / addresses.
 */
export function clientIpResolver(trustProxy: TrustProxy | undefined, where = 'rate limiter'): ClientIpResolver {
  if (trustProxy === undefined || trustProxy === 0)
    return (_request, peer) => (peer === undefined ? null : parseEntry(peer));
  if (typeof trustProxy === 'number') {
    if (!Number.isInteger(trustProxy) || trustProxy < 0) {
      throw new AuthConfigError(
        `Invalid rate limit config: ${where}: trustProxy must be a hop count (a non-negative integer) or a list of CIDRs (got ${String(trustProxy)})`,
      );
    }
    return byHopCount(trustProxy);
  }
  if (!Array.isArray(trustProxy)) {
    throw new AuthConfigError(
      `Invalid rate limit config: ${where}: trustProxy must be a hop count or a list of CIDRs such as ["10.0.0.0/8", "::1"]`,
    );
  }
  const cidrs = trustProxy.map((text: unknown) => {
    const cidr = typeof text === 'string' ? parseCidr(text) : null;
    if (!cidr)
      throw new AuthConfigError(
        `Invalid rate limit config: ${where}: trustProxy entry ${JSON.stringify(text)} is not a CIDR or IP address`,
      );
    return cidr;
  });
  return byCidrs(cidrs);
}

/**
 * The client's address as text (dotted quad, or full lower-case IPv6), or
 * null when unknown. `X-Forwarded-For` (the de-facto header that RFC 7239
 * standardised as `Forwarded: for=`) is read only when `trustProxy` is set.
 *
 * @example
 * ```ts
 * resolveClientIp(request, { ip: socket.remoteAddress, trustProxy: ['10.0.0.0/8'] });
 * ```
 */
export function resolveClientIp(request: Request, options: { ip?: string; trustProxy?: TrustProxy }): string | null {
  const ip = clientIpResolver(options.trustProxy)(request, options.ip);
  return ip ? formatIp(ip) : null;
}
