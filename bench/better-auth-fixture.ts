/**
 * better-auth for the comparison rows: an instance on an in-memory SQLite database with one signed-up user, and
 * that user's session cookie. better-auth is a dev dependency of `bench/` only.
 */
import Database from 'better-sqlite3';
import { SECRET } from './fixtures.js';

/** The part of better-auth the comparison rows call. */
export interface BetterAuthSessions {
  api: { getSession(input: { headers: Headers }): Promise<{ user: { id: string } } | null> };
}

export async function signedInBetterAuth(): Promise<{ auth: BetterAuthSessions; cookie: string }> {
  const { betterAuth } = await import('better-auth');
  const { getMigrations } = await import('better-auth/db/migration');
  const options = {
    database: new Database(':memory:'),
    secret: SECRET,
    baseURL: 'http://localhost',
    emailAndPassword: { enabled: true },
    logger: { disabled: true },
  };
  const auth = betterAuth(options);
  await (await getMigrations(options as never)).runMigrations();
  const res = await auth.api.signUpEmail({
    body: { email: 'bench@example.com', password: 'bench-password', name: 'Bench' },
    asResponse: true,
  });
  const cookie = res.headers
    .getSetCookie()
    .map((l) => l.split(';')[0])
    .join('; ');
  const check = await auth.api.getSession({ headers: new Headers({ cookie }) });
  if (!check?.user) throw new Error('bench: better-auth session did not read back');
  return { auth, cookie };
}
