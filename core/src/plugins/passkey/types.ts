/**
 * The passkey provider's types, apart from its factory and routes.
 * @module
 */
export type Requirement = 'required' | 'preferred' | 'discouraged';

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

/** A passkey configuration: the options with their defaults. `rpId` and `origin` are resolved at `createAuth`. */
export interface PasskeyConfig {
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
}
