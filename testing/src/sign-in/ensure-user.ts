/**
 * Finds or creates the user a test signs in as, and stores the roles the test asks for.
 * @module
 */
import type { StorageAdapter, User } from '@framework/auth';

/** Who {@link ensureUser} makes sure of. */
export interface EnsureUserOptions {
  /** The email (compared as stored: the kit stores addresses lower-cased). */
  as: string;
  name?: string;
  roles?: readonly string[];
}

/**
 * The stored user with this email, created when missing (email verified now, name from `name` or the local part);
 * `roles`, when given, replace the user's roles.
 *
 * @throws TypeError for an empty email.
 * @example
 * ```ts
 * const user = await ensureUser(auth.adapter!, { as: 'ada@example.com', roles: ['admin'] });
 * ```
 */
export async function ensureUser(adapter: StorageAdapter, options: EnsureUserOptions): Promise<User> {
  const email = options.as.trim().toLowerCase();
  if (email === '') throw new TypeError('signIn: `as` must be an email address');
  const found = await adapter.getUserByEmail(email);
  const user =
    found ??
    (await adapter.createUser({ email, name: options.name ?? email.split('@')[0]!, emailVerified: new Date() }));
  if (options.roles === undefined) return user;
  const updated = await adapter.updateUser(user.id, { roles: [...options.roles] });
  if (!updated) throw new Error(`signIn: the user ${email} vanished while its roles were stored`);
  return updated;
}
