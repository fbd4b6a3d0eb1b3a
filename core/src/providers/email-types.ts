/**
 * The email (magic link) provider's types, apart from its factory so the flow and the provider union can name them
 * without importing the flow.
 * @module
 */

/** What `sendVerificationRequest` receives (spec: EmailParams). */
export interface EmailParams {
  /** The recipient address, normalised (trimmed, lower-cased). */
  identifier: string;
  /** The sign-in link: `{origin}{basePath}/callback/email?token=…&email=…`. */
  url: string;
  /** The raw single-use token inside the link (only its SHA-256 is stored). */
  token: string;
  /** When the link stops working. */
  expires: Date;
  /** The provider's `from` address. */
  from: string;
}

/** Options of {@link email} (spec: Providers › email). */
export interface EmailOptions {
  /** Provider id. Default `email`. */
  id?: string;
  /** Display name. Default `Email`. */
  name?: string;
  /** Sender address. */
  from: string;
  /** Link lifetime in seconds. Default 86400 (24 h). */
  maxAge?: number;
  /** Delivers the link. A throw is reported as `EmailSignInError` and the token is withdrawn. */
  sendVerificationRequest(params: EmailParams): Promise<void>;
}

/** A configured email provider. */
export interface EmailProvider {
  readonly id: string;
  readonly name: string;
  readonly type: 'email';
  readonly from: string;
  /** Seconds. */
  readonly maxAge: number;
  sendVerificationRequest(params: EmailParams): Promise<void>;
}
