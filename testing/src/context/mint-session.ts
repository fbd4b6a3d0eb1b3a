/**
 * Real sessions for `withAuth({userId})`, made by the kit itself through
 * `auth.createSession(userId)`: with the `database` strategy a session row
 * (`id.secret` cookie, SHA-256 of the secret stored); with `jwt` a token
 * signed as a sign-in signs it (the app's `jwt` callback runs).
 * @module
 */
import { AuthError, type Auth } from '@framework/auth';

/** A session cookie minted for a user. */
export interface MintedSession {
  /** The session cookie's name (`cookies.sessionToken.name`). */
  name: string;
  value: string;
  expires: Date;
}

/**
 * Mints a real session for `userId` with `auth`, for either session strategy.
 *
 * @throws Error when the user is not in the auth's storage.
 * @example
 * ```ts
 * const { name, value } = await mintSession(auth, user.id);
 * await auth.getSession(new Request('http://localhost/', { headers: { cookie: `${name}=${value}` } }));
 * ```
 */
export async function mintSession(auth: Auth, userId: string): Promise<MintedSession> {
  try {
    const { value, expires } = await auth.createSession(auth.adapter ? userId : { id: userId });
    return { name: auth.config.cookies.sessionToken.name, value, expires };
  } catch (error) {
    if (error instanceof AuthError && error.code === 'NOT_FOUND') {
      throw new Error(
        `withAuth: no user with id ${JSON.stringify(userId)} in the auth's storage; create it in seed(db) first`,
        { cause: error },
      );
    }
    throw error;
  }
}
