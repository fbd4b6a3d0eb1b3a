import type { CredentialsOptions, CredentialsProvider } from './types.js';
import { checkProvider } from './check.js';

/**
 * The credentials provider: sign in with fields you check yourself in
 * `authorize`. Works with both session strategies. The route is
 * `POST {basePath}/callback/credentials` (form or JSON, CSRF-checked).
 *
 * For constant-time answers whether or not the user exists, use
 * `passwordAccounts(adapter).authorize`, which verifies against a dummy hash
 * for unknown users.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for a bad field map or a missing `authorize`.
 * @example
 * ```ts
 * credentials({
 *   credentials: {
 *     email: { label: 'Email', type: 'email', required: true },
 *     password: { label: 'Password', type: 'password', required: true },
 *   },
 *   authorize: passwordAccounts(adapter).authorize,
 * })
 * ```
 */
export function credentials(options: CredentialsOptions): CredentialsProvider {
  return checkProvider({
    id: options?.id ?? 'credentials',
    name: options?.name ?? 'Credentials',
    type: 'credentials',
    credentials: Object.freeze({ ...(options?.credentials ?? {}) }),
    authorize: options?.authorize,
  }) as CredentialsProvider;
}
