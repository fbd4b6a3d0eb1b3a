/**
 * The passkey (WebAuthn) provider, over `@simplewebauthn/server`.
 * @module
 */
import { checkProvider } from './check.js';

type Requirement = 'required' | 'preferred' | 'discouraged';

/** Options of {@link passkey} (spec: Providers › passkey). */
export interface PasskeyOptions {
  /** Provider id. Default `passkey`. */
  id?: string;
  /** Display name. Default `Passkey`. */
  name?: string;
  /** Relying Party name shown by the authenticator. */
  rpName: string;
  /** Relying Party ID: the registrable domain, e.g. `example.com` (`localhost` in development). */
  rpId: string;
  /** The exact origin the browser reports, e.g. `https://example.com` or `http://localhost:3000`. */
  origin: string;
  authenticatorAttachment?: 'platform' | 'cross-platform';
  /** Default `preferred`; `required` makes verification fail without user verification. */
  userVerification?: Requirement;
  /** Discoverable credential (WebAuthn §6.1). Default `preferred`. */
  residentKey?: Requirement;
  /** Let a signed-out visitor create an account with just a passkey (body field `email`, optional `name`). Default false. */
  allowSignUp?: boolean;
}

/** A configured passkey provider. */
export interface PasskeyProvider {
  readonly id: string;
  readonly name: string;
  readonly type: 'passkey';
  readonly rpName: string;
  readonly rpId: string;
  readonly origin: string;
  readonly authenticatorAttachment?: 'platform' | 'cross-platform';
  readonly userVerification: Requirement;
  readonly residentKey: Requirement;
  readonly allowSignUp: boolean;
}

/**
 * Passkeys: registration and authentication with WebAuthn (W3C Web
 * Authentication Level 3) through `@simplewebauthn/server`. Routes under
 * basePath, all POST and CSRF-checked: `/passkey/register/options`,
 * `/passkey/register/verify` (a signed-in user adds a passkey; or sign-up
 * when `allowSignUp`), `/passkey/authenticate/options`,
 * `/passkey/authenticate/verify` (discoverable credentials, no username
 * needed), plus `GET /passkey/credentials` and `POST /passkey/delete`.
 * Challenges are single-use, expire in 5 minutes and are bound to the browser
 * by a sealed cookie; origin, rpId and the signature counter are checked.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) when `origin` is not on `rpId`, or for bad option values.
 * @example
 * ```ts
 * passkey({ rpName: 'Example', rpId: 'localhost', origin: 'http://localhost:3000' })
 * ```
 */
export function passkey(options: PasskeyOptions): PasskeyProvider {
  return checkProvider({
    id: options?.id ?? 'passkey',
    name: options?.name ?? 'Passkey',
    type: 'passkey',
    rpName: options?.rpName,
    rpId: options?.rpId,
    origin: options?.origin,
    ...(options?.authenticatorAttachment ? { authenticatorAttachment: options.authenticatorAttachment } : {}),
    userVerification: options?.userVerification ?? 'preferred',
    residentKey: options?.residentKey ?? 'preferred',
    allowSignUp: options?.allowSignUp ?? false,
  }) as PasskeyProvider;
}
