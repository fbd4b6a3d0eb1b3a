/**
 * The one code path of one-time codes, for every channel (email, SMS): issue a code for a purpose and an address,
 * and check one. Codes are hashed at rest (HMAC under the auth secret), expire, allow `allowedAttempts` tries and
 * work once; a code issued for one purpose, channel or address never passes for another.
 * @module
 */
import { timingSafeEqual, type RouteContext } from '../../plugin-kit.js';
import { generateOtp, otpDigest, otpKey } from './code.js';
import { otpError } from './errors.js';
import type { OtpPolicy } from './policy.js';
import type { OtpStorage } from './types.js';

/** What a code is for: its channel (`email`, `phone`), its purpose (`sign-in`, …) and the normalised address. */
export interface OtpTarget {
  channel: string;
  purpose: string;
  address: string;
}

/** Issues and checks codes under one policy and storage. */
export interface OtpCodes {
  readonly policy: OtpPolicy;
  readonly storage: OtpStorage;
  /** Makes and stores a fresh code for `target` (an earlier one stops working); returns it to be sent. */
  issue(ctx: RouteContext, target: OtpTarget): Promise<{ code: string; expiresAt: Date }>;
  /** Withdraws the live code of `target` (its sending failed). */
  withdraw(target: OtpTarget): Promise<void>;
  /**
   * Spends `code` on `target`: resolves once, for the right live code.
   * @throws AuthError `OTP_INVALID` (401: wrong, used, expired, or for another purpose or address),
   *   `OTP_TOO_MANY_ATTEMPTS` (429: the code's tries are spent).
   */
  check(ctx: RouteContext, target: OtpTarget, code: string | undefined): Promise<void>;
}

const keyOf = (t: OtpTarget) => otpKey(t.channel, t.purpose, t.address);

/**
 * The code path over `storage`, following `policy`. Codes are keyed by the auth's signing key (the first
 * `secret`), so they stop working when it changes.
 * @example
 * ```ts
 * const codes = otpCodes(resolveOtpPolicy('myPlugin', {}), createMemoryOtpStorage());
 * const { code } = await codes.issue(ctx, { channel: 'email', purpose: 'sign-in', address });
 * await codes.check(ctx, { channel: 'email', purpose: 'sign-in', address }, ctx.body.code);
 * ```
 */
export function otpCodes(policy: OtpPolicy, storage: OtpStorage): OtpCodes {
  return {
    policy,
    storage,
    async issue(ctx, target) {
      const id = await keyOf(target);
      const code = generateOtp(policy.otpLength);
      const expiresAt = new Date(ctx.auth.clock.now() + policy.expiresIn * 1000);
      await storage.put({ id, codeHash: await otpDigest(ctx.auth.signingKey, id, code), expiresAt });
      return { code, expiresAt };
    },
    async withdraw(target) {
      await storage.remove(await keyOf(target));
    },
    async check(ctx, target, code) {
      const given = (code ?? '').replace(/[\s-]/g, '');
      if (!/^[0-9]+$/.test(given) || given.length !== policy.otpLength) throw otpError('OTP_INVALID');
      const id = await keyOf(target);
      const live = await storage.attempt(id, new Date(ctx.auth.clock.now()));
      if (!live) throw otpError('OTP_INVALID');
      if (live.attempts > policy.allowedAttempts) throw otpError('OTP_TOO_MANY_ATTEMPTS');
      const digest = await otpDigest(ctx.auth.signingKey, id, given);
      if (!timingSafeEqual(digest, live.codeHash)) {
        if (live.attempts >= policy.allowedAttempts) {
          await storage.remove(id);
          throw otpError('OTP_TOO_MANY_ATTEMPTS');
        }
        throw otpError('OTP_INVALID');
      }
      if (!(await storage.consume(id, digest))) throw otpError('OTP_INVALID');
    },
  };
}
