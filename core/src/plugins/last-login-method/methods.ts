/**
 * The values the last-login-method cookie may hold, and the method a sign-in used.
 * @module
 */
import type { RouteContext, SignInSubject } from '../../plugin-kit.js';

/** The methods with a fixed name; OAuth/OIDC sign-ins are `oauth:<provider id>`. */
export const LAST_LOGIN_METHODS = [
  'credentials',
  'email-otp',
  'magic-link',
  'passkey',
  'phone-number',
  'username',
] as const;

/** A method a person signed in with: one of {@link LAST_LOGIN_METHODS}, or `oauth:<provider id>`. */
export type LastLoginMethod = (typeof LAST_LOGIN_METHODS)[number] | `oauth:${string}`;

const FIXED: ReadonlySet<string> = new Set(LAST_LOGIN_METHODS);
/** An OAuth provider id as it may appear in the value: letters, digits, `.`, `_`, `-`, at most 64. */
const OAUTH = /^oauth:[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * Whether `value` is a method name the cookie may hold. Anything else (a forged or corrupted cookie) is ignored.
 * @example
 * ```ts
 * isLastLoginMethod('oauth:github'); // true
 * isLastLoginMethod('<script>'); // false
 * ```
 */
export function isLastLoginMethod(value: unknown): value is LastLoginMethod {
  return typeof value === 'string' && (FIXED.has(value) || OAUTH.test(value));
}

/** The method `subject` signed in with, or null for one the list does not name (no cookie is set then). */
export function methodOf(ctx: RouteContext, subject: SignInSubject): LastLoginMethod | null {
  const account = subject.account;
  if (!account) return null;
  const base = ctx.auth.config.basePath;
  // `username()` signs in on the password account; its route tells the two apart.
  if (ctx.route?.startsWith(`${base}/username/`)) return 'username';
  let method: string | null = null;
  if (account.provider === 'email-otp' || account.provider === 'phone-number') method = account.provider;
  else if (account.type === 'oauth' || account.type === 'oidc') method = `oauth:${account.provider}`;
  else if (account.type === 'webauthn') method = 'passkey';
  else if (account.type === 'email') method = 'magic-link';
  else if (account.type === 'credentials') method = 'credentials';
  return isLastLoginMethod(method) ? method : null;
}
