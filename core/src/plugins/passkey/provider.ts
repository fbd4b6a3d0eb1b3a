/**
 * Passkeys (WebAuthn), over `@simplewebauthn/server`: a plugin whose sign-in method has the ceremony routes under
 * `{basePath}/passkey/*` and a button on the sign-in page.
 * @module
 */
import { AuthConfigError } from '../../errors.js';
import type { AuthPlugin } from '../../contract/types.js';
import { passkeyPlugin } from './plugin.js';
import { checkOriginOnRpId } from './rp.js';
import type { PasskeyOptions } from './types.js';

export type { PasskeyConfig, PasskeyOptions } from './types.js';

function fail(id: string, message: string): never {
  throw new AuthConfigError(`Invalid provider: "${id}": ${message}`);
}

function isHttpOrigin(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Checks the options that do not depend on `createAuth` (origin and rpId may come from `baseURL`). */
function checkOptions(id: string, o: PasskeyOptions): void {
  if (typeof o.rpName !== 'string' || o.rpName.length === 0) fail(id, 'rpName must be a non-empty string');
  if (o.rpId !== undefined && (typeof o.rpId !== 'string' || !/^[a-z0-9.-]+$/i.test(o.rpId)))
    fail(id, 'rpId must be a domain such as "example.com"');
  if (o.origin !== undefined && (typeof o.origin !== 'string' || !isHttpOrigin(o.origin)))
    fail(id, 'origin must be an http(s) origin such as "https://example.com"');
  if (o.origin !== undefined) checkOriginOnRpId(id, o.origin, o.rpId);
  for (const [name, value] of [
    ['userVerification', o.userVerification],
    ['residentKey', o.residentKey],
  ] as const) {
    if (value !== undefined && !['required', 'preferred', 'discouraged'].includes(value))
      fail(id, `${name} must be required, preferred or discouraged`);
  }
  if (
    o.authenticatorAttachment !== undefined &&
    o.authenticatorAttachment !== 'platform' &&
    o.authenticatorAttachment !== 'cross-platform'
  ) {
    fail(id, 'authenticatorAttachment must be platform or cross-platform');
  }
}

/**
 * Passkeys: registration and authentication with WebAuthn (W3C Web
 * Authentication Level 3) through `@simplewebauthn/server`. Routes under
 * basePath, all POST and CSRF-checked: `/passkey/register/options`,
 * `/passkey/register/verify` (a signed-in user adds a passkey; or sign-up
 * when `allowSignUp`), `/passkey/authenticate/options`,
 * `/passkey/authenticate/verify` (discoverable credentials, no username
 * needed), plus `GET /passkey` (management page), `GET /passkey/credentials`
 * and `POST /passkey/delete`. Challenges are single-use, expire in 5 minutes
 * and are bound to the browser by a sealed cookie; origin, rpId and the
 * signature counter are checked. Every sign-in and sign-up ends in the
 * core's one sign-in completion (the `signIn` callback runs first).
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for bad option values; at
 *   `createAuth`, when `origin` is not on `rpId`, when neither `origin` nor
 *   `baseURL` is set, or for a second `passkey()` (plugin ids are unique).
 * @example
 * ```ts
 * passkey({ rpName: 'Example', rpId: 'localhost', origin: 'http://localhost:3000' })
 * passkey({ rpName: 'Example' }) // origin and rpId from createAuth({ baseURL })
 * ```
 */
export function passkey(options: PasskeyOptions): AuthPlugin<'passkey'> {
  const id = options?.id ?? 'passkey';
  checkOptions(id, options ?? ({} as PasskeyOptions));
  return passkeyPlugin({
    id,
    name: options.name ?? 'Passkey',
    type: 'passkey',
    rpName: options.rpName,
    ...(options.rpId !== undefined ? { rpId: options.rpId } : {}),
    ...(options.origin !== undefined ? { origin: options.origin } : {}),
    ...(options.authenticatorAttachment ? { authenticatorAttachment: options.authenticatorAttachment } : {}),
    userVerification: options.userVerification ?? 'preferred',
    residentKey: options.residentKey ?? 'preferred',
    allowSignUp: options.allowSignUp ?? false,
  });
}
