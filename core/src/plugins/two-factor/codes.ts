/**
 * Checking a second factor: a TOTP code (accepted once per time step) or a backup code (spent on use), and the
 * TOTP key's encryption at rest.
 * @module
 * @internal
 */
import {
  fromBase64Url,
  randomBytes,
  toBase64Url,
  AuthConfigError,
  tokenCipher,
  type TokenCipher,
} from '../../plugin-kit.js';
import type { AuthInternals } from '../../plugin-kit.js';
import { hashBackupCode, looksLikeBackupCode } from './backup-codes.js';
import type { ResolvedTwoFactorOptions } from './options.js';
import { matchingStep } from './totp.js';
import type { TwoFactorRecord } from './types.js';

/** Key length: 160 bits, the HMAC-SHA-1 block-aligned size RFC 4226 §4 recommends. */
const KEY_BYTES = 20;

/** What the user proves with: one of `code` (TOTP) or `backupCode`. */
export interface SecondFactor {
  code?: string | undefined;
  backupCode?: string | undefined;
}

/** Encrypts and decrypts TOTP keys under the auth `secret` (AES-256-GCM, HKDF; rotation-safe). */
export class KeyVault {
  readonly #cipher: TokenCipher;
  constructor(auth: AuthInternals) {
    if (auth.config.secret.length === 0)
      throw new AuthConfigError(
        'Invalid auth config: twoFactor() needs `secret` (TOTP keys are encrypted at rest under it)',
      );
    this.#cipher = tokenCipher(auth.config.secret);
  }
  /** A new random key, and its stored (encrypted) form. */
  async create(userId: string): Promise<{ key: Uint8Array; stored: string }> {
    const key = randomBytes(KEY_BYTES);
    return { key, stored: await this.#cipher.encrypt(toBase64Url(key), `two-factor:${userId}`) };
  }
  /** The plain key of a record; null when no configured secret opens it. */
  async open(record: TwoFactorRecord): Promise<Uint8Array | null> {
    const plain = await this.#cipher.decrypt(record.secret, `two-factor:${record.userId}`);
    if (plain === null || plain === record.secret) return null;
    try {
      return fromBase64Url(plain);
    } catch {
      return null;
    }
  }
}

/**
 * Checks a second factor for `record`'s user and spends it: a TOTP code must match a step within the window that
 * is later than the last accepted one (RFC 6238 §5.2); a backup code is removed. False for anything else.
 */
export async function spendSecondFactor(
  o: ResolvedTwoFactorOptions,
  vault: KeyVault,
  record: TwoFactorRecord,
  factor: SecondFactor,
  now: number,
): Promise<boolean> {
  if (typeof factor.code === 'string' && factor.code !== '') {
    const key = await vault.open(record);
    if (!key) return false;
    const step = matchingStep(key, factor.code.replace(/\s/g, ''), o.totp, now);
    return step !== null && (await o.storage.useStep(record.userId, step));
  }
  if (typeof factor.backupCode === 'string' && looksLikeBackupCode(factor.backupCode)) {
    return o.storage.useBackupCode(record.userId, await hashBackupCode(factor.backupCode));
  }
  return false;
}
