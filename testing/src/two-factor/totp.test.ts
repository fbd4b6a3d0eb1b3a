import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createAuth, passwordAccounts } from '@framework/auth';
import { createMemoryTwoFactorStorage, twoFactor } from '@framework/auth/plugins/two-factor';
import { createSignedInSession, createTestContext, type TestContext } from '@framework/testing';
import '@framework/testing/vitest';

const email = 'ada@example.com';
const password = 'correct horse battery';

async function post(ctx: TestContext, path: string, body: Record<string, string>) {
  const { csrfToken } = (await (await ctx.fetch('/auth/csrf')).json()) as { csrfToken: string };
  return ctx.fetch(path, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ csrfToken, ...body }),
  });
}

describe('ctx.totp', async () => {
  const ctx = await createTestContext({
    createApp: (db, { origin }) =>
      createAuth({
        baseURL: origin,
        secret: ['a-new-secret-of-at-least-32-characters!', 'the-old-secret-of-at-least-32-characters'],
        adapter: db.adapter,
        providers: [],
        emailAndPassword: {},
        plugins: [twoFactor({ storage: createMemoryTwoFactorStorage() })],
        env: {},
      }),
    seed: async (db) => {
      const user = await passwordAccounts(db.adapter).register({ email, password });
      await db.adapter.updateUser(user.id, { emailVerified: new Date() });
    },
  });
  afterAll(() => ctx.cleanup());
  afterEach(() => void vi.useRealTimers());

  it('answers the code of an enrolled user, which completes a password sign-in', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await createSignedInSession({ auth: ctx.auth!, baseURL: ctx.origin }, { as: email, twoFactor: true });
    // The enrolment's confirmation spent this time step's code; the app's clock moves to the next step.
    vi.setSystemTime(Date.now() + 30_000);

    const first = await post(ctx, '/auth/callback/credentials', { email, password });
    await expect(first).toHaveAuthError('TWO_FACTOR_REQUIRED');
    const code = await ctx.totp(email);
    expect(code).toMatch(/^\d{6}$/);
    const verified = await post(ctx, '/auth/two-factor/verify', { code });
    expect(verified.status).toBe(200);
    await expect(ctx).toBeSignedInAs(email);
  });

  it('refuses users who are not enrolled, and apps without the plugin', async () => {
    await expect(ctx.totp('nobody@example.com')).rejects.toThrow(/no stored user/);
    const other = await ctx.db.adapter.createUser({ email: 'grace@example.com' });
    await expect(ctx.totp(other.id)).rejects.toThrow(/not enrolled/);
    const plain = await createTestContext();
    await expect(plain.totp(email)).rejects.toThrow(/no twoFactor\(\) plugin/);
    await plain.cleanup();
  });
});
