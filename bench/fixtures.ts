/**
 * Shared set-up for the benchmarks: an auth instance with one signed-in
 * user, for either session strategy.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAuth,
  credentials,
  passwordAccounts,
  createSqliteAdapter,
  type Auth,
  type StorageAdapter,
} from '@framework/auth';

export const SECRET = 'bench-secret-bench-secret-bench-secret-0001';

/** An auth with one signed-in user on `adapter` (default: a fresh SQLite file), and that user's session cookie. */
export async function signedInAuth(
  strategy: 'jwt' | 'database',
  adapter: StorageAdapter = createSqliteAdapter({
    filename: join(mkdtempSync(join(tmpdir(), 'framework-bench-')), 'auth.db'),
  }),
): Promise<{ auth: Auth; cookie: string }> {
  await adapter.migrate();
  const passwords = passwordAccounts(adapter);
  await passwords.register({ email: 'bench@example.com', password: 'bench-password', name: 'Bench' });
  const auth = createAuth({
    session: { strategy },
    secret: SECRET,
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: passwords.authorize,
      }),
    ],
  });
  const csrf = await auth.handler(new Request('http://localhost/auth/csrf'));
  const csrfCookie = csrf.headers.get('set-cookie')!.split(';')[0]!;
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await auth.handler(
    new Request('http://localhost/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', cookie: csrfCookie },
      body: JSON.stringify({ csrfToken, email: 'bench@example.com', password: 'bench-password' }),
    }),
    { ip: '127.0.0.1' },
  );
  const cookie = res.headers
    .getSetCookie()
    .find((l) => l.startsWith('framework.session-token='))!
    .split(';')[0]!;
  return { auth, cookie };
}
