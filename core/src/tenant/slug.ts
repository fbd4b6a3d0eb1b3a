/**
 * What a tenant slug and a tenant id may look like.
 * @module
 */

/** One DNS label (RFC 1123 §2.1): lowercase letters, digits, inner hyphens; 1–63 characters. */
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * Whether `value` is a valid tenant slug: lowercase letters, digits and
 * hyphens, 1–63 characters, not starting or ending with a hyphen (a DNS
 * label, RFC 1123), and without `--` in the third and fourth places, which
 * IDNA reserves for encoded labels such as `xn--` (RFC 5891 §4.2.3.1), so a
 * slug can never pose as an internationalized name.
 * @example
 * ```ts
 * isValidTenantSlug('acme-eu'); // true
 * isValidTenantSlug('Acme');    // false: uppercase
 * isValidTenantSlug('xn--80ak6aa92e'); // false
 * ```
 */
export function isValidTenantSlug(value: unknown): value is string {
  return typeof value === 'string' && SLUG.test(value) && value.slice(2, 4) !== '--';
}

/**
 * Whether `value` may be a tenant id: letters, digits, `_` and `-`, 1–128 characters, starting with a letter
 * or digit.
 */
export function isValidTenantId(value: unknown): value is string {
  return typeof value === 'string' && ID.test(value);
}
