/**
 * Storage calls per flow: a sign-in and a sign-out make no call twice (the user is not read again after the
 * password check read it; the session is read once). Counted through a wrapper that records every adapter call.
 */
import { describe, expect, it } from 'vitest';
import { credentials } from '../providers/credentials.js';
import { createMemoryAdapter } from '../storage/memory.js';
import type { StorageAdapter } from '../storage/types.js';
import { PASSWORD, makeFixture } from '../testing/fixtures.js';

/** A memory adapter whose calls are recorded in `calls`. */
function counted() {
  const calls: string[] = [];
  const base = createMemoryAdapter();
  const adapter = new Proxy(base, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as StorageAdapter;
  return { adapter, calls };
}

describe.each(['database', 'jwt'] as const)('storage calls per flow (%s sessions)', (strategy) => {
  it('a password sign-in reads the user and the password once each; a sign-out reads the session once', async () => {
    const { adapter, calls } = counted();
    const f = await makeFixture(strategy, { adapter });
    const c = f.client();
    c.ip = '192.0.2.1';
    await c.csrf();
    calls.length = 0;
    expect((await c.signIn()).status).toBe(200);
    const issue = strategy === 'database' ? ['createSession'] : ['getSessionVersion'];
    expect(calls).toStrictEqual(['getUserByEmail', 'getAccount', ...issue]);
    await c.csrf();
    calls.length = 0;
    expect((await c.postJson('/auth/signout', {})).status).toBeLessThan(400);
    expect(calls).toStrictEqual(strategy === 'database' ? ['getSessionAndUser', 'deleteSession'] : []);
  });
});

it("an app's authorize that returns a user it built itself is still looked up (and adopted) before a database session", async () => {
  const { adapter, calls } = counted();
  const f = await makeFixture('database', {
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
        authorize: async ({ email }) =>
          email === 'app@example.com' ? { id: 'app-user-1', email, name: 'From the app' } : null,
      }),
    ],
  });
  const c = f.client();
  c.ip = '192.0.2.1';
  calls.length = 0;
  expect((await c.signIn('app@example.com', PASSWORD)).status).toBe(200);
  expect(calls).toContain('getUser');
  expect(calls).toContain('createUser');
  expect((await c.session())?.user.name).toBe('From the app');
});
