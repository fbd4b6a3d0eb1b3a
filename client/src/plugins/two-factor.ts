/**
 * `@framework/auth-client/plugins/two-factor`: browser functions for every route of the server's `twoFactor()`
 * plugin. Each resolves to an {@link AccountResult} and never rejects.
 *
 * A sign-in of a user with two-factor on answers `signIn(…)` with `error: 'TWO_FACTOR_REQUIRED'` (401) and sets
 * the challenge cookie; finish it with {@link verifyTwoFactor}.
 * @module
 */
import { authRequest, type AccountResult, type AuthClientOptions } from '@framework/auth-client';

/** `GET {basePath}/two-factor`. Times are ISO 8601 strings. */
export interface TwoFactorStatus {
  enabled: boolean;
  /** An enrolment was started and awaits its first code. */
  pending: boolean;
  backupCodesLeft: number;
  trustedDevices: { id: string; userAgent: string | null; createdAt: string; expiresAt: string }[];
}

/** What `enableTwoFactor` answers: show `qrCode` (an SVG string) and the backup codes once. */
export interface TwoFactorEnrolment {
  totpURI: string;
  qrCode: string;
  /** The key in base32, for typing by hand. */
  secret: string;
  backupCodes: string[];
}

/** A proof for `disable` and `backup-codes`: the password, a TOTP code or a backup code. */
export type TwoFactorProof = { password: string } | { code: string } | { backupCode: string };

/**
 * The signed-in user's two-factor status.
 * @example
 * ```ts
 * const { data } = await getTwoFactorStatus();
 * if (data?.enabled) showBadge();
 * ```
 */
export const getTwoFactorStatus = (options?: AuthClientOptions) => authRequest<TwoFactorStatus>('/two-factor', options);

/**
 * Starts an enrolment: `POST {basePath}/two-factor/enable`.
 * @returns errors `INVALID_CREDENTIALS` (401), `SESSION_NOT_FRESH` (403, password-less users),
 *   `EMAIL_NOT_VERIFIED` (403: verify the email first), `TWO_FACTOR_ALREADY_ENABLED` (409).
 * @example
 * ```ts
 * const { data } = await enableTwoFactor({ password });
 * qr.innerHTML = data!.qrCode;
 * ```
 */
export const enableTwoFactor = (input: { password?: string }, options?: AuthClientOptions) =>
  authRequest<TwoFactorEnrolment>('/two-factor/enable', options, input);

/**
 * Confirms the enrolment with the first code from the app: `POST {basePath}/two-factor/confirm`.
 * @returns errors `TWO_FACTOR_INVALID_CODE` (401), `EMAIL_NOT_VERIFIED` (403).
 * @example
 * ```ts
 * await confirmTwoFactor({ code: '123456' });
 * ```
 */
export const confirmTwoFactor = (input: { code: string }, options?: AuthClientOptions) =>
  authRequest<{ enabled: true }>('/two-factor/confirm', options, input);

/**
 * Finishes a sign-in that answered `TWO_FACTOR_REQUIRED`: `POST {basePath}/two-factor/verify`. On success the
 * session store refreshes; `data.url` is where to go.
 * @returns errors `TWO_FACTOR_INVALID_CODE` (401), `TWO_FACTOR_CHALLENGE_INVALID` (401: sign in again),
 *   `TWO_FACTOR_TOO_MANY_ATTEMPTS` (429), `RATE_LIMITED` (429: too many tries on this account from this IP),
 *   `TWO_FACTOR_LOCKED` (429: too many wrong codes for this account; `Retry-After` says when to try again).
 * @example
 * ```ts
 * const result = await signIn('credentials', { email, password, redirect: false });
 * if (result.error === 'TWO_FACTOR_REQUIRED') await verifyTwoFactor({ code, trustDevice: true });
 * ```
 */
export const verifyTwoFactor = (
  input: ({ code: string } | { backupCode: string }) & { trustDevice?: boolean },
  options?: AuthClientOptions,
) => authRequest<{ url: string }>('/two-factor/verify', options, input, true);

/**
 * Turns two-factor off: `POST {basePath}/two-factor/disable`.
 * @example
 * ```ts
 * await disableTwoFactor({ password });
 * ```
 */
export const disableTwoFactor = (input: TwoFactorProof, options?: AuthClientOptions) =>
  authRequest<{ enabled: false }>('/two-factor/disable', options, input);

/**
 * New backup codes (the old ones stop working): `POST {basePath}/two-factor/backup-codes`.
 * @example
 * ```ts
 * const { data } = await regenerateBackupCodes({ code: '123456' });
 * ```
 */
export const regenerateBackupCodes = (input: TwoFactorProof, options?: AuthClientOptions) =>
  authRequest<{ backupCodes: string[] }>('/two-factor/backup-codes', options, input);

/**
 * Forgets one trusted browser (`id`), or all of them: `POST {basePath}/two-factor/trusted-devices/revoke`.
 * @example
 * ```ts
 * await revokeTrustedDevices();
 * ```
 */
export const revokeTrustedDevices = (input?: { id?: string }, options?: AuthClientOptions) =>
  authRequest<{ removed: number }>('/two-factor/trusted-devices/revoke', options, input ?? {});

export type { AccountResult };
