/**
 * Domain claims: an organization claims an email domain and proves it with a DNS TXT record at
 * `_framework-sso.<domain>` whose value is the claim's token; only then do sign-ins by email route to its provider.
 * @module
 * @internal
 */
import { authError, randomString, sha256Hex, timingSafeEqual } from '../../plugin-kit.js';
import { ssoError } from './errors.js';
import type { ResolveTxt } from './options.js';
import type { SsoDomainRecord, SsoStorage } from './types.js';

/** The label the TXT record goes under: `_framework-sso.<domain>`. */
export const TXT_LABEL = '_framework-sso';

/** A random verification token for a domain claim (the TXT record's value). */
const verificationToken = () => `framework-sso-verification=${randomString(24)}`;

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * A domain name, lower-cased and without a trailing dot: at least two labels, each 1–63 letters, digits or `-`
 * (IDNs in their `xn--` form), 253 characters at most.
 * @throws AuthError `SSO_DOMAIN_INVALID` (400).
 */
export function parseDomain(value: unknown): string {
  const domain = typeof value === 'string' ? value.trim().toLowerCase().replace(/\.$/, '') : '';
  const labels = domain.split('.');
  if (domain.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l)) || /^\d+$/.test(labels.at(-1)!))
    throw ssoError('SSO_DOMAIN_INVALID');
  return domain;
}

/** The domain of an email address (lower-case), or null when it has none. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at <= 0) return null;
  try {
    return parseDomain(email.slice(at + 1));
  } catch {
    return null;
  }
}

/**
 * Whether an IdP of `organizationId` vouches for `email`: the IdP reports it verified (`idpVerified`; a SAML
 * assertion always does) and its domain is one this organization proved. An address in a domain another
 * organization proved is refused outright: that organization's people are never created, linked or signed in by
 * someone else's IdP.
 * @throws AuthError `OAUTH_ACCOUNT_NOT_LINKED` (409) when another organization verified the email's domain.
 */
export async function vouchedEmail(
  storage: SsoStorage,
  organizationId: string,
  email: string | null,
  idpVerified: boolean,
): Promise<boolean> {
  const domain = email ? emailDomain(email) : null;
  const owner = domain ? (await storage.verifiedDomain(domain))?.organizationId : undefined;
  if (owner !== undefined && owner !== organizationId)
    throw authError(
      'OAUTH_ACCOUNT_NOT_LINKED',
      'This identity provider cannot sign in an address of a domain another organization verified',
    );
  return idpVerified && owner === organizationId;
}

/** What the owner publishes: the TXT record's name and value. */
export interface DomainChallenge {
  domain: string;
  /** The host name of the TXT record: `_framework-sso.<domain>`. */
  txtName: string;
  /** The record's value: the verification token (shown once; stored hashed). */
  txtValue: string;
}

/** Claims `domain` for the organization (or renews its token): a new token, stored hashed; unverified until found. */
export async function claimDomain(
  storage: SsoStorage,
  organizationId: string,
  domain: string,
  now: Date,
): Promise<DomainChallenge> {
  const token = verificationToken();
  await storage.claimDomain({ domain, organizationId, tokenHash: await sha256Hex(token), createdAt: now });
  return { domain, txtName: `${TXT_LABEL}.${domain}`, txtValue: token };
}

/**
 * Looks up the TXT records at `_framework-sso.<domain>` and marks the claim verified when one carries its token
 * (compared as SHA-256 hashes, in constant time).
 * @throws AuthError `SSO_DOMAIN_NOT_CLAIMED` (404), `SSO_DOMAIN_UNVERIFIED` (400) when no record matches or the
 *   lookup fails, `SSO_DOMAIN_TAKEN` (409) when another organization verified it first.
 */
export async function verifyDomain(
  storage: SsoStorage,
  resolveTxt: ResolveTxt,
  organizationId: string,
  domain: string,
  now: Date,
): Promise<SsoDomainRecord> {
  const claim = await storage.getDomain(domain, organizationId);
  if (!claim) throw ssoError('SSO_DOMAIN_NOT_CLAIMED');
  let records: string[][];
  try {
    records = await resolveTxt(`${TXT_LABEL}.${domain}`);
  } catch {
    throw ssoError('SSO_DOMAIN_UNVERIFIED');
  }
  let found = false;
  for (const record of Array.isArray(records) ? records.slice(0, 50) : []) {
    // A long TXT value arrives split into character-strings of at most 255 bytes (RFC 1035 §3.3.14).
    const value = (Array.isArray(record) ? record.join('') : String(record)).trim();
    if (value.length > 0 && value.length < 512 && timingSafeEqual(await sha256Hex(value), claim.tokenHash))
      found = true;
  }
  if (!found) throw ssoError('SSO_DOMAIN_UNVERIFIED');
  if (!(await storage.markDomainVerified(domain, organizationId, now))) throw ssoError('SSO_DOMAIN_TAKEN');
  return { ...claim, verifiedAt: now };
}

/** What the routes show of a claim (never the token hash). */
export function domainView(d: SsoDomainRecord) {
  return {
    domain: d.domain,
    txtName: `${TXT_LABEL}.${d.domain}`,
    verified: d.verifiedAt !== null,
    verifiedAt: d.verifiedAt?.toISOString() ?? null,
  };
}
