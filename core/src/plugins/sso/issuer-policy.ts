/**
 * Which OIDC issuers the server may fetch from: outside local development only `https:` URLs on hosts that are
 * not and do not resolve to loopback, private, link-local, unique-local, CGNAT, multicast, reserved or unspecified
 * addresses (server-side request forgery, OWASP SSRF; ASVS V12/V13). Addresses are classified by `ipaddr.js`.
 * @module
 * @internal
 */
import ipaddr from 'ipaddr.js';
import { ssoError } from './errors.js';
import { pinnedFetch } from './issuer-transport.js';

/**
 * Resolves a host name to all its addresses (as `lookup` of `node:dns/promises` with `{ all: true }` answers).
 * @example
 * ```ts
 * const lookup: LookupAddresses = async () => [{ address: '203.0.113.10', family: 4 }];
 * ```
 */
export type LookupAddresses = (hostname: string) => Promise<ReadonlyArray<{ address: string; family?: number }>>;

/** What the check needs: whether private issuers are allowed, and how host names resolve. */
export interface IssuerPolicy {
  allowPrivate: boolean;
  lookup: LookupAddresses;
}

/** The default lookup: `node:dns/promises`, loaded on first use (runtimes without it pass their own). */
export const dnsLookup: LookupAddresses = async (hostname) =>
  (await import('node:dns/promises')).lookup(hostname, { all: true });

/** Host names that are loopback by definition (RFC 6761 §6.3), with or without the trailing dot. */
const isLocalhostName = (host: string) => {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
};

/** The bare host of a URL's `hostname` (IPv6 literals without their brackets). */
const bareHost = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Whether `address` is a public unicast address. IPv4-mapped IPv6 addresses are judged as the IPv4 address they
 * carry; anything `ipaddr.js` does not classify as `unicast` (loopback, private, link-local, unique-local, CGNAT,
 * multicast, reserved, unspecified, …) or cannot parse is not.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/**
 * Whether `baseURL` is local development: `http:` on a loopback host (`localhost`, `127.0.0.0/8`, `[::1]`). The
 * default of `allowPrivateIssuers`. Without a configured base URL it is false.
 */
export function isLocalDevelopment(baseURL: string | undefined): boolean {
  if (!baseURL) return false;
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:') return false;
  const host = bareHost(url.hostname);
  return isLocalhostName(host) || (ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback');
}

const refused = (detail: string) => ssoError('SSO_ISSUER_NOT_ALLOWED', detail);

/**
 * Checks a URL the server is about to fetch from on behalf of an organization (the issuer). With
 * `allowPrivate` every URL passes. Otherwise it must be `https:`, its host must not be `localhost` (or under
 * `.localhost`), an address literal must be public, and every address a host name resolves to must be public.
 * @throws AuthError `SSO_ISSUER_NOT_ALLOWED` (400) otherwise, also when the name does not resolve.
 */
export async function checkIssuerUrl(value: string, policy: IssuerPolicy): Promise<void> {
  if (policy.allowPrivate) return;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw refused('The issuer is not a URL');
  }
  if (url.protocol !== 'https:') throw refused('The issuer must be an https URL');
  const host = bareHost(url.hostname);
  if (isLocalhostName(host)) throw refused('The issuer must not be on this machine');
  if (ipaddr.isValid(host)) {
    if (!isPublicAddress(host)) throw refused('The issuer must be on a public address');
    return;
  }
  await resolvePublic(host, policy);
}

/**
 * Resolves `host` through `policy.lookup` and answers its addresses only when every one of them is public.
 * @throws AuthError `SSO_ISSUER_NOT_ALLOWED` (400) when the name does not resolve or any address is not public.
 */
export async function resolvePublic(
  host: string,
  policy: Pick<IssuerPolicy, 'lookup'>,
): Promise<Array<{ address: string; family: number }>> {
  let addresses: ReadonlyArray<{ address: string; family?: number }>;
  try {
    addresses = await policy.lookup(host);
  } catch {
    throw refused('The issuer host name does not resolve');
  }
  if (!Array.isArray(addresses) || addresses.length === 0) throw refused('The issuer host name does not resolve');
  if (!addresses.every((a) => typeof a?.address === 'string' && isPublicAddress(a.address)))
    throw refused('The issuer must be on a public address');
  return addresses.map((a) => ({ address: a.address, family: a.address.includes(':') ? 6 : 4 }));
}

/**
 * A `fetch` for an organization's identity provider: with `allowPrivate` it is `base` (default the global `fetch`)
 * unchanged; otherwise every URL is checked by {@link checkIssuerUrl} before it is fetched (so the token, UserInfo
 * and JWKS endpoints a discovery document names are held to the issuer's rules), and redirects are never followed
 * (`redirect: 'manual'`: a public endpoint cannot send the request on to an internal one; the 3xx answer fails the
 * step).
 *
 * Without `base`, on runtimes with `node:https`, the request goes through {@link pinnedFetch}: the connection's own
 * DNS lookup is `policy.lookup` checked by {@link resolvePublic}, so the address checked is the address connected to
 * (a DNS-rebinding answer that turns private between the check and the connection is refused, not connected to;
 * TLS still verifies the certificate for the host name). With a `base` of the caller's (an egress proxy's), the
 * check runs before it and `base` resolves the name again itself: the proxy must refuse internal destinations.
 * @throws AuthError `SSO_ISSUER_NOT_ALLOWED` (400) for a refused URL or address, before any request is sent.
 * @example
 * ```ts
 * const guarded = issuerFetch({ allowPrivate: false, lookup: dnsLookup });
 * await guarded('https://10.0.0.5/token'); // throws SSO_ISSUER_NOT_ALLOWED
 * ```
 */
export function issuerFetch(policy: IssuerPolicy, base?: typeof fetch): typeof fetch {
  if (policy.allowPrivate) return base ?? ((input, init) => fetch(input, init));
  const send = base ?? nodePinnedFetch(policy);
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    await checkIssuerUrl(url, policy);
    return (await send)(input, { ...init, redirect: 'manual' });
  };
}

/**
 * {@link pinnedFetch} over {@link resolvePublic} under `policy`, or the global `fetch` on runtimes without
 * `node:https` (whose outbound requests the platform routes; the check before it still runs).
 */
async function nodePinnedFetch(policy: IssuerPolicy): Promise<typeof fetch> {
  try {
    await import('node:https');
  } catch {
    return (input, init) => fetch(input, init);
  }
  return pinnedFetch((host) => resolvePublic(host, policy));
}
