/**
 * Test fixture shared by the SvelteKit and Remix adapter tests: a real
 * engine over the memory adapter with two password users, and a sign-in
 * that goes through `auth.handler` like a browser would.
 * @internal
 * @module
 */
import { vi } from 'vitest';
import { createAuth, credentials, createMemoryAdapter, passwordAccounts, type Auth } from '@framework/auth';
import { defineRBAC } from '@framework/auth/convention';

export const PASSWORD = 'correct-horse-battery';
export const ORIGIN = 'http://app.test';

/** Options of {@link authFixture}. */
export interface FixtureOptions {
  /** Give `createAuth` an RBAC where `editor` inherits `viewer`. */
  rbac?: boolean;
  /** Session lifetime in seconds (refreshed on every read when set). */
  maxAge?: number;
}

/**
 * An engine with `ada@example.com` (role admin), `bob@example.com` (role
 * editor), `carol@example.com` (no role) and `dave@example.com` (`roles:
 * ['viewer']`, the array shape).
 */
export async function authFixture(
  options: FixtureOptions = {},
): Promise<{ auth: Auth; signIn(email: string): Promise<string> }> {
  const adapter = createMemoryAdapter();
  const passwords = passwordAccounts(adapter);
  for (const [email, role, name] of [
    ['ada@example.com', 'admin', 'Ada'],
    ['bob@example.com', 'editor', 'Bob'],
  ] as const) {
    const user = await passwords.register({ email, password: PASSWORD, name });
    await adapter.updateUser(user.id, { role });
  }
  await passwords.register({ email: 'carol@example.com', password: PASSWORD, name: 'Carol' });
  const dave = await passwords.register({ email: 'dave@example.com', password: PASSWORD, name: 'Dave' });
  await adapter.updateUser(dave.id, { roles: ['viewer'] });
  const grants = { admin: ['*'], editor: ['posts:edit'], viewer: ['posts:read'] };
  const roles = Object.entries(grants).map(([id, permissions]) => ({ id, name: id, permissions }));
  const rbac = defineRBAC({ roles, hierarchy: { editor: ['viewer'] } });
  const auth = createAuth({
    session: { strategy: 'database', ...(options.maxAge ? { maxAge: options.maxAge, updateAge: 0 } : {}) },
    secret: 's'.repeat(40),
    adapter,
    rateLimit: { login: false },
    ...(options.rbac ? { rbac } : {}),
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: passwords.authorize,
      }),
    ],
  });
  async function signIn(email: string): Promise<string> {
    const csrf = await auth.handler(new Request(`${ORIGIN}/auth/csrf`));
    const csrfCookie = csrf.headers.getSetCookie()[0]!.split(';')[0]!;
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const res = await auth.handler(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', cookie: csrfCookie, origin: ORIGIN },
        body: JSON.stringify({ csrfToken, email, password: PASSWORD }),
      }),
    );
    if (res.status !== 200) throw new Error(`sign-in of ${email} answered ${res.status}`);
    return res.headers
      .getSetCookie()
      .find((l) => l.startsWith('framework.session-token='))!
      .split(';')[0]!;
  }
  return { auth, signIn };
}

/**
 * Signs `email` in on a faked clock, moves the clock `seconds` on, and runs
 * `body` with the engine and the session cookie (expired or due for a
 * refresh, depending on `maxAge`); the real clock comes back afterwards.
 */
export async function laterSession(
  options: FixtureOptions,
  email: string,
  seconds: number,
  body: (auth: Auth, cookie: string) => Promise<void>,
): Promise<void> {
  const start = Date.parse('2026-03-01T00:00:00Z');
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(start);
    const { auth, signIn } = await authFixture(options);
    const cookie = await signIn(email);
    vi.setSystemTime(start + seconds * 1000);
    await body(auth, cookie);
  } finally {
    vi.useRealTimers();
  }
}
