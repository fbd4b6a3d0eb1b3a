/**
 * Attacks on `oneTap()`'s single-use store (`spent.ts`): one token replayed at once through two adapters over one
 * SQLite file and through two instances keeping verification tokens in one Redis, what a row holds and how long (memory, SQLite, PostgreSQL, MySQL/MariaDB), and a nonce tried with
 * another browser's nonce cookie.
 */
import { createHash, randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { mysqlDatabases } from '../../../../test-support/mysql-databases.js';
import { REDIS_URL, serviceAvailable } from '../../../../test-support/services.js';
import { redisSecondaryStorage } from '../../secondary/redis.js';
import { postgresSchemas } from '../../../../test-support/pg-schemas.js';
import { createAuth, type CreateAuthOptions } from '../../auth.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { createMysqlAdapter } from '../../storage/sql/mysql.js';
import { postgresAdapterIn } from '../../storage/sql/sql-test-support.js';
import { createSqliteAdapter } from '../../storage/sql/sqlite.js';
import type { StorageAdapter } from '../../storage/types.js';
import { ORIGIN, SECRET, TestClient } from '../../testing/fixtures.js';
import { CLIENT_ID, localGoogle } from './google.test-helpers.js';
import { oneTap } from './index.js';
import { spendOnce } from './spent.js';

const { jwksUrl, token, close } = await localGoogle();
afterAll(close);
// Under CI=true this throws when PostgreSQL is down, failing the file.
const pg = await postgresSchemas('one_tap_spent');
const my = await mysqlDatabases('one_tap_spent');
afterAll(async () => {
  await pg.dropAll();
  await my.dropAll();
});

const authOn = (adapter: StorageAdapter, more: Partial<CreateAuthOptions> = {}) =>
  createAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    adapter,
    ...more,
    providers: [],
    plugins: [oneTap({ clientId: CLIENT_ID, jwksUrl })],
    rateLimit: { login: false },
    logger: { error: () => {}, warn: () => {} },
  });
const redisUp = await serviceAvailable('redis');
const errorCode = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;
const post = (c: TestClient, body: Record<string, unknown>) => c.postJson('/auth/one-tap/callback', body);

describe('oneTap() spent store attacks', () => {
  it('one token sent at once through two adapters over one SQLite file signs in once', async () => {
    const file = join(tmpdir(), `one-tap-spent-${randomUUID()}.sqlite`);
    const adapters = [createSqliteAdapter({ filename: file }), createSqliteAdapter({ filename: file })];
    try {
      const auths = adapters.map((a) => authOn(a));
      await auths[0]!.migrate();
      const t = await token({ jti: 'sqlite-race' });
      const clients = [0, 1, 0, 1, 0, 1].map((i) => new TestClient(auths[i]!));
      const results = await Promise.all(clients.map((c) => post(c, { idToken: t })));
      expect(results.map((r) => r.status).sort()).toStrictEqual([200, 401, 401, 401, 401, 401]);
      for (const r of results.filter((r) => r.status === 401)) expect(await errorCode(r)).toBe('ONE_TAP_TOKEN_INVALID');
      const signedIn = await Promise.all(clients.map(async (c) => (await c.session())?.user.email ?? null));
      expect(signedIn.filter(Boolean)).toHaveLength(1);
    } finally {
      await Promise.all(adapters.map((a) => a.close?.()));
      await rm(file, { force: true });
      await rm(`${file}-wal`, { force: true });
      await rm(`${file}-shm`, { force: true });
    }
  });

  it.runIf(redisUp)('one token sent at once to two instances keeping tokens in one Redis signs in once', async () => {
    const keyPrefix = `test:one-tap:${randomUUID()}:`;
    const adapter = createMemoryAdapter();
    const secondaries = await Promise.all(
      [0, 1].map(async () => {
        const client = await createClient({ url: REDIS_URL }).connect();
        const secondary = redisSecondaryStorage(client, { keyPrefix, channel: `${keyPrefix}invalidate` });
        await secondary.ready();
        return { client, secondary };
      }),
    );
    try {
      const auths = secondaries.map(({ secondary }) => authOn(adapter, { secondaryStorage: secondary }));
      await auths[0]!.migrate();
      const t = await token({ jti: 'redis-race' });
      const clients = [0, 1, 0, 1].map((i) => new TestClient(auths[i]!));
      const results = await Promise.all(clients.map((c) => post(c, { idToken: t })));
      expect(results.map((r) => r.status).sort()).toStrictEqual([200, 401, 401, 401]);
      // Nothing of it in the database: the spent mark lives in Redis, under the token's hash.
      const hash = createHash('sha256').update(t).digest('hex');
      expect(await adapter.useVerificationToken({ identifier: 'one-tap-token', tokenHash: hash })).toBeNull();
      const keys = await secondaries[0]!.client.keys(`${keyPrefix}*`);
      expect(keys.some((k) => k.includes(hash))).toBe(true);
      expect(keys.join(' ')).not.toContain(t.split('.')[2]!);
    } finally {
      for (const { client, secondary } of secondaries) {
        await secondary.close();
        await client.quit().catch(() => {});
      }
    }
  });

  for (const [label, open] of [
    ['memory', async () => createMemoryAdapter()],
    ['SQLite', async () => createSqliteAdapter({ filename: ':memory:' })],
    ...(pg.available ? [['PostgreSQL', () => postgresAdapterIn(pg)]] : []),
    ...(my.available ? [['MySQL/MariaDB', async () => createMysqlAdapter({ pool: (await my.isolated()).pool })]] : []),
  ] as [string, () => Promise<StorageAdapter>][])
    it(`${label}: a row keeps only the hash, per kind, until it expires; purgeExpired removes it`, async () => {
      const adapter = await open();
      try {
        await adapter.migrate();
        const now = Date.now();
        const later = new Date(now + 3_600_000);
        const earlier = new Date(now - 1_000);
        expect(await spendOnce(adapter, 'token', 'secret-a', later)).toBe(true);
        expect(await spendOnce(adapter, 'token', 'secret-a', later)).toBe(false);
        // A nonce and a token are spent apart: one never blocks the other.
        expect(await spendOnce(adapter, 'nonce', 'secret-a', later)).toBe(true);
        expect(await spendOnce(adapter, 'token', 'secret-b', earlier)).toBe(true);
        const hash = createHash('sha256').update('secret-a').digest('hex');
        const row = await adapter.useVerificationToken({ identifier: 'one-tap-token', tokenHash: hash });
        expect(row).toMatchObject({ identifier: 'one-tap-token', tokenHash: hash });
        expect(JSON.stringify(row)).not.toContain('secret-a');
        // Consumed by that read: put it back, as the store had it.
        expect(await spendOnce(adapter, 'token', 'secret-a', later)).toBe(true);

        const purged = await adapter.purgeExpired(new Date(now));
        expect(purged.verificationTokens).toBe(1);
        // The expired row is gone (the secret it named is past its own expiry anyway); the live ones stay.
        expect(await spendOnce(adapter, 'token', 'secret-b', later)).toBe(true);
        expect(await spendOnce(adapter, 'token', 'secret-a', later)).toBe(false);
        expect(await spendOnce(adapter, 'nonce', 'secret-a', later)).toBe(false);
      } finally {
        await adapter.close?.();
      }
    });

  it("a nonce works only with its own browser's cookie, and a refused try spends nothing", async () => {
    const adapter = createMemoryAdapter();
    const auth = authOn(adapter);
    await auth.migrate();
    const nonceOf = async (c: TestClient) =>
      ((await (await c.request('/auth/one-tap/nonce')).json()) as { nonce: string }).nonce;
    const a = new TestClient(auth);
    const b = new TestClient(auth);
    const nonceA = await nonceOf(a);
    const nonceB = await nonceOf(b);
    expect(nonceA).not.toBe(nonceB);
    const stolen = await post(b, { idToken: await token({ nonce: nonceA, jti: 'stolen' }) });
    expect(stolen.status).toBe(401);
    expect(await errorCode(stolen)).toBe('ONE_TAP_NONCE_INVALID');
    expect(await b.session()).toBeNull();
    expect((await post(a, { idToken: await token({ nonce: nonceA, jti: 'own-a' }) })).status).toBe(200);
    expect((await post(b, { idToken: await token({ nonce: nonceB, jti: 'own-b' }) })).status).toBe(200);
  });
});
