/**
 * The email (magic link) provider.
 * @module
 */
import { checkProvider } from './check.js';
import { withFlow } from './flow.js';
import { emailFlow } from '../routes/email.js';

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

/**
 * Sign-in by a single-use link sent by email. `POST {basePath}/signin/email`
 * (CSRF-checked, field `email`) creates a token, stores only its SHA-256 with
 * its expiry, sends the link, and always redirects to the verify-request page,
 * whether or not the address is known. `GET {basePath}/callback/email`
 * consumes the token atomically (two clicks give one session), creates the
 * user on first use with `emailVerified` set, and signs in. Expired or reused
 * links go to the error page with `error=Verification`. Needs a storage adapter.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for a missing `from` or sender function, or a bad maxAge.
 * @example
 * ```ts
 * email({
 *   from: 'login@example.com',
 *   sendVerificationRequest: ({ identifier, url }) => mailer.send({ to: identifier, subject: 'Sign in', text: url }),
 * })
 * ```
 */
export function email(options: EmailOptions): EmailProvider {
  const provider = {
    id: options?.id ?? 'email',
    name: options?.name ?? 'Email',
    type: 'email',
    from: options?.from,
    maxAge: options?.maxAge ?? 86400,
    sendVerificationRequest: options?.sendVerificationRequest,
  } as EmailProvider;
  return checkProvider(withFlow(provider, emailFlow)) as EmailProvider;
}
