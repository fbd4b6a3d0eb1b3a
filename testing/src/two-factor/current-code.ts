/**
 * `currentTotp`: the code an enrolled user's authenticator app shows now.
 * @module
 */
import type { Auth } from '@framework/auth';
import type { TwoFactorExtension } from '@framework/auth/plugins/two-factor';
import { openStoredTotpKey } from './stored-key.js';
import { totpCodeOfKey, type TotpParameters } from './totp-code.js';

/** A user by id, by email (a string with `@`), or a record with an `id`. */
export type TotpUser = string | { id: string };

async function userIdOf(auth: Auth, user: TotpUser): Promise<string> {
  if (typeof user !== 'string') return user.id;
  if (!user.includes('@')) return user;
  const found = await auth.adapter?.getUserByEmail(user.trim().toLowerCase());
  if (!found) throw new Error(`totp: no stored user with email ${user}`);
  return found.id;
}

/**
 * The current TOTP code of a user enrolled with `twoFactor()` (confirmed or pending), computed with `otpauth`
 * from the key the plugin's storage keeps (opened with the auth's secrets). Give `digits` / `period` when the
 * plugin was configured with other values than 6 / 30 s. A code is accepted once per time step: a test that
 * needs two codes in a row waits for the next step.
 *
 * @throws Error when the auth has no `twoFactor()` plugin, the user is unknown or not enrolled, or no secret opens
 * the stored key.
 * @example
 * ```ts
 * const code = await currentTotp(auth, 'ada@example.com');
 * await submit(ctx, '/auth/two-factor/verify', { code });
 * ```
 */
export async function currentTotp(auth: Auth, user: TotpUser, params: TotpParameters = {}): Promise<string> {
  const twoFactor = auth.extensions.twoFactor as TwoFactorExtension | undefined;
  if (!twoFactor?.storage) throw new Error('totp: the auth has no twoFactor() plugin');
  const userId = await userIdOf(auth, user);
  const record = await twoFactor.storage.get(userId);
  if (!record) throw new Error(`totp: user ${userId} is not enrolled in two-factor authentication`);
  return totpCodeOfKey(await openStoredTotpKey(record.secret, userId, auth.config.secret), params);
}
