import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encryptAccountTokens } from './encrypted-tokens.js';
import { createMemoryAdapter } from './memory.js';
import { createSqliteAdapter } from './sql/sqlite.js';
import type { AdapterAccount, StorageAdapter } from './types.js';

const OLD = 'old-secret-old-secret-old-secret-0001';
const NEW = 'new-secret-new-secret-new-secret-0002';
const TOKENS = {
  access_token: 'gho_access-token-1',
  refresh_token: 'ghr_refresh-token-1',
  id_token: 'eyJhbGciOi.id.token',
};

async function withUser(raw: StorageAdapter): Promise<string> {
  await raw.migrate();
  return (await raw.createUser({ email: `${crypto.randomUUID()}@example.com` })).id;
}

const account = (userId: string, id = 'acct-1'): AdapterAccount => ({
  provider: 'github',
  providerAccountId: id,
  type: 'oauth',
  userId,
  token_type: 'bearer',
  scope: 'read:user',
  expires_at: 1_900_000_000,
  ...TOKENS,
});

describe.each([
  ['memory', () => createMemoryAdapter()],
  ['sqlite', () => createSqliteAdapter({ filename: ':memory:' })],
])('encryptAccountTokens over %s', (_name, make) => {
  it('stores access, refresh and ID tokens encrypted and reads them back in clear', async () => {
    const raw = make();
    const userId = await withUser(raw);
    const adapter = encryptAccountTokens(raw, [OLD]);
    const input = account(userId);
    expect(await adapter.linkAccount(input)).toStrictEqual(input);
    expect(await adapter.getAccount(input)).toStrictEqual(input);
    expect(await adapter.listAccounts(userId)).toStrictEqual([input]);

    const stored = (await raw.getAccount(input))!;
    for (const field of ['access_token', 'refresh_token', 'id_token'] as const) {
      expect(stored[field]).toMatch(/^enc:v1:[A-Za-z0-9_-]+$/);
      expect(JSON.stringify(stored)).not.toContain(TOKENS[field]);
    }
    expect(stored).toMatchObject({ token_type: 'bearer', scope: 'read:user', expires_at: 1_900_000_000 });

    const updated = await adapter.updateAccount(input, {
      access_token: 'gho_access-token-2',
      refresh_token: null,
    } as unknown as Partial<AdapterAccount>);
    const { refresh_token: _cleared, ...rest } = input;
    expect(updated).toStrictEqual({ ...rest, access_token: 'gho_access-token-2' });
    expect((await raw.getAccount(input))!.access_token).toMatch(/^enc:v1:/);
    expect((await raw.getAccount(input))!).not.toHaveProperty('refresh_token');
    // Two encryptions of one token differ (fresh IV).
    await adapter.updateAccount(input, { access_token: 'same' });
    const first = (await raw.getAccount(input))!.access_token;
    await adapter.updateAccount(input, { access_token: 'same' });
    expect((await raw.getAccount(input))!.access_token).not.toBe(first);
  });

  it('rotation: old rows stay readable under [new, old]; new rows are written with the new secret', async () => {
    const raw = make();
    const userId = await withUser(raw);
    await encryptAccountTokens(raw, [OLD]).linkAccount(account(userId, 'old-row'));
    const rotated = encryptAccountTokens(raw, [NEW, OLD]);
    expect(await rotated.getAccount({ provider: 'github', providerAccountId: 'old-row' })).toMatchObject(TOKENS);
    await rotated.linkAccount(account(userId, 'new-row'));
    const onlyNew = encryptAccountTokens(raw, [NEW]);
    expect(await onlyNew.getAccount({ provider: 'github', providerAccountId: 'new-row' })).toMatchObject(TOKENS);
    // The old secret dropped: its rows read as having no tokens (sign in again), never as ciphertext.
    const orphan = await onlyNew.getAccount({ provider: 'github', providerAccountId: 'old-row' });
    expect(orphan).toStrictEqual({
      provider: 'github',
      providerAccountId: 'old-row',
      type: 'oauth',
      userId,
      token_type: 'bearer',
      scope: 'read:user',
      expires_at: 1_900_000_000,
    });
  });

  it('rows written before encryption (plain text) stay readable, and are encrypted on their next write', async () => {
    const raw = make();
    const userId = await withUser(raw);
    const legacy = account(userId, 'legacy');
    await raw.linkAccount(legacy);
    const adapter = encryptAccountTokens(raw, [OLD]);
    expect(await adapter.getAccount(legacy)).toStrictEqual(legacy);
    await adapter.updateAccount(legacy, { access_token: 'gho_fresh' });
    expect((await raw.getAccount(legacy))!.access_token).toMatch(/^enc:v1:/);
    expect((await adapter.getAccount(legacy))!.access_token).toBe('gho_fresh');
  });

  it('a ciphertext moved to another account or field, or tampered with, does not open', async () => {
    const raw = make();
    const userId = await withUser(raw);
    const adapter = encryptAccountTokens(raw, [OLD]);
    const [victim, attacker] = [account(userId, 'victim'), account(userId, 'attacker')];
    await adapter.linkAccount(victim);
    await adapter.linkAccount(attacker);
    const stolen = (await raw.getAccount(victim))!;
    await raw.updateAccount(attacker, { access_token: stolen.access_token, id_token: stolen.refresh_token });
    const read = (await adapter.getAccount(attacker))!;
    expect(read).not.toHaveProperty('access_token');
    expect(read).not.toHaveProperty('id_token');
    expect(read.refresh_token).toBe(TOKENS.refresh_token);

    const value = stolen.access_token!;
    const flipped = value.slice(0, -2) + (value.at(-2) === 'A' ? 'B' : 'A') + value.at(-1);
    for (const bad of [flipped, 'enc:v1:', 'enc:v1:!!!', 'enc:v1:AAAA']) {
      await raw.updateAccount(victim, { access_token: bad });
      expect(await adapter.getAccount(victim), bad).not.toHaveProperty('access_token');
    }
  });
});

describe('encryptAccountTokens', () => {
  it('passes every other method through, returns the adapter unchanged without secrets, and never wraps twice', async () => {
    const raw = createMemoryAdapter();
    const userId = await withUser(raw);
    expect(encryptAccountTokens(raw, [])).toBe(raw);
    const adapter = encryptAccountTokens(raw, [OLD]);
    expect(encryptAccountTokens(adapter, [OLD])).toBe(adapter);
    expect(await adapter.getUser(userId)).toStrictEqual(await raw.getUser(userId));
    expect(await adapter.bumpSessionVersion(userId)).toBe(1);
    expect(await raw.getSessionVersion(userId)).toBe(1);
  });

  it('round-trips any token text (property)', async () => {
    const raw = createMemoryAdapter();
    const userId = await withUser(raw);
    const adapter = encryptAccountTokens(raw, [NEW, OLD]);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.string({ maxLength: 40 }),
        async (token, id) => {
          const key = { provider: 'p', providerAccountId: `${id}-${++n}` };
          await adapter.linkAccount({ ...key, type: 'oauth', userId, access_token: token, id_token: token });
          const read = (await adapter.getAccount(key))!;
          expect([read.access_token, read.id_token]).toStrictEqual([token, token]);
          expect((await raw.getAccount(key))!.access_token).toMatch(/^enc:v1:/);
        },
      ),
      { numRuns: 100 },
    );
  });
});
