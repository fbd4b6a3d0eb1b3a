import type { EmailSource } from '../types.js';

/** The bare, lower-cased address of `value` (angle brackets and spaces removed). */
export function normalizeAddress(value: string): string {
  return value
    .trim()
    .replace(/^<(.*)>$/, '$1')
    .trim()
    .toLowerCase();
}

/** The domain of an address, lower-cased; `''` when it has none. */
export function domainOf(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? '' : address.slice(at + 1).toLowerCase();
}

/**
 * Whether an email source wants mail for `recipient`: its `address` equals
 * the recipient and its `domain` equals the recipient's domain (both compared
 * without case; a domain matches itself only, not `notexample.com` nor
 * subdomains). A source without filters takes every recipient.
 *
 * @example
 * ```ts
 * emailSourceMatches({ domain: 'example.com' }, 'Ada@EXAMPLE.com'); // true
 * emailSourceMatches({ domain: 'example.com' }, 'ada@notexample.com'); // false
 * ```
 */
export function emailSourceMatches(source: Pick<EmailSource, 'address' | 'domain'>, recipient: string): boolean {
  const address = normalizeAddress(recipient);
  if (source.address !== undefined && normalizeAddress(source.address) !== address) return false;
  if (source.domain !== undefined && domainOf(address) !== source.domain.trim().replace(/^@/, '').toLowerCase())
    return false;
  return true;
}
