/**
 * The passkey (WebAuthn) provider, over `@simplewebauthn/server`. It is a
 * provider that brings its own plugin: the ceremony routes under
 * `{basePath}/passkey/*`, and the button of the sign-in page.
 * @module
 */
import { AuthConfigError } from '../../errors.js';
import type { AuthPlugin } from '../types.js';
import { passkeyScript } from './assets.js';
import { passkeyPlugin } from './plugin.js';
import { checkOriginOnRpId } from './rp.js';

type Requirement = 'required' | 'preferred' | 'discouraged';

/** Options of {@link passkey} (spec: Providers › passkey). */
export interface PasskeyOptions {
  /** Provider id. Default `passkey`. */
  id?: string;
  /** Display name. Default `Passkey`. */
  name?: string;
  /** Relying Party name shown by the authenticator. */
  rpName: string;
  /**
   * Relying Party ID: the registrable domain, e.g. `example.com` (`localhost`
   * in development). Default: the host name of `origin`.
   */
  rpId?: string;
  /**
   * The exact origin the browser reports, e.g. `https://example.com` or
   * `http://localhost:3000`. Default: `createAuth`'s `baseURL` (or
   * `AUTH_URL`); one of the two is required.
   */
  origin?: string;
  authenticatorAttachment?: 'platform' | 'cross-platform';
  /** Default `preferred`; `required` makes verification fail without user verification. */
  userVerification?: Requirement;
  /** Discoverable credential (WebAuthn §6.1). Default `preferred`. */
  residentKey?: Requirement;
  /**
   * Let a signed-out visitor create an account with just a passkey (body field `email`, optional `name`).
   * Default false.
   */
  allowSignUp?: boolean;
}

/** A configured passkey provider. `rpId` and `origin` are resolved by `createAuth` when left out. */
export interface PasskeyProvider {
  readonly id: string;
  readonly name: string;
  readonly type: 'passkey';
  readonly rpName: string;
  readonly rpId?: string;
  readonly origin?: string;
  readonly authenticatorAttachment?: 'platform' | 'cross-platform';
  readonly userVerification: Requirement;
  readonly residentKey: Requirement;
  readonly allowSignUp: boolean;
  /** The routes it serves (`/passkey/*`), registered by `createAuth`. */
  readonly plugin: AuthPlugin<'passkey'>;
  /** Its part of the default sign-in page. */
  signInForm(input: { basePath: string; csrfToken: string; callbackUrl: string }): string;
}

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
 *   `baseURL` is set, or for a second passkey provider.
 * @example
 * ```ts
 * passkey({ rpName: 'Example', rpId: 'localhost', origin: 'http://localhost:3000' })
 * passkey({ rpName: 'Example' }) // origin and rpId from createAuth({ baseURL })
 * ```
 */
export function passkey(options: PasskeyOptions): PasskeyProvider {
  const id = options?.id ?? 'passkey';
  checkOptions(id, options ?? ({} as PasskeyOptions));
  const provider: Omit<PasskeyProvider, 'plugin' | 'signInForm'> = {
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
  };
  return Object.freeze({
    ...provider,
    plugin: passkeyPlugin(provider),
    signInForm: ({ basePath, csrfToken, callbackUrl }: { basePath: string; csrfToken: string; callbackUrl: string }) =>
      `<button type="button" data-passkey="authenticate">Sign in with a passkey</button><p id="passkey-status" role="status"></p>${passkeyScript(basePath, csrfToken, callbackUrl)}`,
  });
}
