/**
 * The email (magic link) provider.
 * @module
 */
import { checkProvider } from './check.js';
import { withFlow } from './flow.js';
import { emailFlow } from '../routes/email.js';
import type { EmailOptions, EmailProvider } from './email-types.js';

export type { EmailOptions, EmailParams, EmailProvider } from './email-types.js';

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
