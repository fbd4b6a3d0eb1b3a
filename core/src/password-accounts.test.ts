import { describe, expect, it } from 'vitest';
import { passwordAccounts } from './password-accounts.js';
import { createMemoryAdapter } from './storage/memory.js';
import { verifyPassword } from './password.js';

describe('passwordAccounts', () => {
  it('registers, then authorizes only the right password (email matched case-insensitively)', async () => {
    const adapter = createMemoryAdapter();
    const p = passwordAccounts(adapter);
    const user = await p.register({ email: '  Grace@Example.com ', password: 'cobol-rocks', name: ' Grace ' });
    expect(user).toMatchObject({ email: 'Grace@Example.com', name: 'Grace', emailVerified: null });
    const account = await adapter.getAccount({ provider: 'credentials', providerAccountId: user.id });
    expect(account?.type).toBe('credentials');
    expect(await verifyPassword('cobol-rocks', account!.passwordHash!)).toBe(true);
    expect((await p.authorize({ email: 'grace@example.com', password: 'cobol-rocks' }))?.id).toBe(user.id);
    expect(await p.authorize({ email: 'grace@example.com', password: 'cobol-rock' })).toBeNull();
    expect(await p.authorize({ email: 'nobody@example.com', password: 'cobol-rocks' })).toBeNull();
    expect(await p.authorize({})).toBeNull();
  });

  it('refuses a duplicate email with EMAIL_TAKEN (409) and leaves the first account as it was', async () => {
    const adapter = createMemoryAdapter();
    const p = passwordAccounts(adapter);
    const first = await p.register({ email: 'a@example.com', password: 'first-password' });
    await expect(
      p.register({ email: 'A@EXAMPLE.COM', password: 'second-password', name: 'Mallory' }),
    ).rejects.toMatchObject({
      code: 'EMAIL_TAKEN',
      status: 409,
    });
    expect((await adapter.getUser(first.id))?.name).toBeNull();
    expect((await p.authorize({ email: 'a@example.com', password: 'first-password' }))?.id).toBe(first.id);
    expect(await p.authorize({ email: 'a@example.com', password: 'second-password' })).toBeNull();
  });

  it('validates email and password length', async () => {
    const p = passwordAccounts(createMemoryAdapter());
    await expect(p.register({ email: 'not-an-email', password: 'long-enough' })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
    await expect(p.register({ email: 'a@b.c', password: 'short' })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      status: 400,
    });
  });

  it('setPassword replaces the password', async () => {
    const p = passwordAccounts(createMemoryAdapter());
    const u = await p.register({ email: 'b@example.com', password: 'old-password' });
    await p.setPassword(u.id, 'new-password');
    expect(await p.authorize({ email: 'b@example.com', password: 'old-password' })).toBeNull();
    expect((await p.authorize({ email: 'b@example.com', password: 'new-password' }))?.id).toBe(u.id);
  });

  it('takes comparable time for an unknown user and a wrong password (one argon2 verification each)', async () => {
    const p = passwordAccounts(createMemoryAdapter());
    await p.register({ email: 'c@example.com', password: 'right-password' });
    await p.authorize({ email: 'warm@example.com', password: 'x' });
    const median = async (creds: Record<string, string>) => {
      const times: number[] = [];
      for (let i = 0; i < 7; i++) {
        const t = performance.now();
        await p.authorize(creds);
        times.push(performance.now() - t);
      }
      return times.sort((a, b) => a - b)[3]!;
    };
    const wrong = await median({ email: 'c@example.com', password: 'wrong-password' });
    const unknown = await median({ email: 'nobody@example.com', password: 'wrong-password' });
    // Without the dummy verification the unknown-user path would be ~1000× faster.
    // Wide bounds: test files run in parallel on 2 cores; the gap this guards against is ~1000×.
    expect(unknown / wrong).toBeGreaterThan(0.3);
    expect(unknown / wrong).toBeLessThan(3);
  });
});
