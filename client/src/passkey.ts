/**
 * Passkeys from the page: `signIn.passkey()` and `addPasskey()`, over the passkey provider's routes
 * (`{basePath}/passkey/*`) and `@simplewebauthn/browser`. The ceremonies (passkey-ceremony.ts, with
 * `@simplewebauthn/browser`) are imported on first use, so pages that never touch a passkey do not load them.
 * @module
 */
import type { AccountResult } from './account.js';
import { call, csrfToken, currentUrl, endpoint, errorCode } from './http.js';
import type { PasskeyKit } from './passkey-ceremony.js';
import type { AddedPasskey, AddPasskeyOptions, PasskeySignInOptions } from './passkey-types.js';
import { finishSignIn, type SignInResult } from './sign-in-answer.js';

export type { AddedPasskey, AddPasskeyOptions, PasskeySignInOptions } from './passkey-types.js';

/** The client's helpers the ceremonies use, handed to them (see passkey-ceremony.ts). */
const kit: PasskeyKit = { call, csrfToken, currentUrl, endpoint, errorCode, finishSignIn };

/** The ceremonies' chunk; a failure to load it (offline, a stale deployment) is a `FETCH_ERROR`. */
async function ceremonies(): Promise<typeof import('./passkey-ceremony.js') | undefined> {
  try {
    return await import('./passkey-ceremony.js');
  } catch {
    return undefined;
  }
}

const FETCH_ERROR = { ok: false, status: 0, error: 'FETCH_ERROR' } as const;

/** `signIn.passkey(options?)`: see `SignIn.passkey` in sign-in.ts. */
export async function signInWithPasskey(options?: PasskeySignInOptions): Promise<SignInResult> {
  return (await ceremonies())?.signInWithPasskey(kit, options) ?? FETCH_ERROR;
}

/**
 * Adds a passkey to the signed-in account: `POST {basePath}/passkey/register/options`, the browser's ceremony
 * (`@simplewebauthn/browser`, loaded on first use), then `POST {basePath}/passkey/register/verify` with the label.
 * The session does not change. Never rejects.
 *
 * @returns `{ok, status, error?, data?}`; `data.credential` is the stored passkey's `{id, name}`. `error` is the
 *   server's code (`UNAUTHENTICATED` when signed out, `IMPERSONATION_RESTRICTED`, `PASSKEY_VERIFICATION_FAILED`,
 *   `INVALID_REQUEST` for a label with control or invisible characters, …) or, with `status` 0,
 *   `PASSKEY_UNSUPPORTED`, `PASSKEY_CANCELLED`, `PASSKEY_ALREADY_REGISTERED` (this authenticator holds one for the
 *   account already), `PASSKEY_FAILED`, `FETCH_ERROR`.
 * @example
 * ```ts
 * import { addPasskey } from '@framework/auth-client';
 *
 * const { ok, data, error } = await addPasskey({ name: 'Work laptop' });
 * if (ok) console.log(`added ${data?.credential.name}`);
 * else if (error !== 'PASSKEY_CANCELLED') console.error(error);
 * ```
 */
export async function addPasskey(options?: AddPasskeyOptions): Promise<AccountResult<AddedPasskey>> {
  return (await ceremonies())?.addPasskey(kit, options) ?? FETCH_ERROR;
}
