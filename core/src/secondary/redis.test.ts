import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import pg from 'pg';
import { postgresSchemas } from '../../../test-support/pg-schemas.js';
import { DATABASE_URL, REDIS_URL, serviceAvailable } from '../../../test-support/services.js';
import { createAuth, credentials, passwordAccounts, createPostgresAdapter, type Auth } from '../index.js';
import { redisSecondaryStorage, type SecondaryStorage } from '../redis.js';

const PASSWORD = 'correct-horse-battery';
const ORIGIN = 'http://app.test';
const schemas = await postgresSchemas('secondary_test');
const redisUp = await serviceAvailable('redis');

type Instance = { auth: Auth; secondary: SecondaryStorage; pool: pg.Pool; reads: () => number };
const closers: Array<() => Promise<unknown>> = [];

/** One app instance: its own pg pool on `schema`, its own Redis client, sharing `channel`. */
async function instance(schema: string, channel: string, ttlMs = 60_000): Promise<Instance> {
  const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 2, options: `-c search_path=${schema}` });
  const client = await createClient({ url: REDIS_URL }).connect();
  const secondary = redisSecondaryStorage(client, { channel, ttlMs });
  const adapter = createPostgresAdapter({ pool });
  let count = 0;
  const counting = new Proxy(adapter, {
    get: (t, k, r) =>
      k === 'getSessionAndUser' ? (id: string) => (count++, t.getSessionAndUser(id)) : Reflect.get(t, k, r),
  });
  const passwords = passwordAccounts(adapter);
  const auth = createAuth({
    session: { strategy: 'database' },
    secret: 's'.repeat(40),
    adapter: counting,
    secondaryStorage: secondary,
    rateLimit: { login: false },
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: passwords.authorize,
      }),
    ],
  });
  await secondary.ready();
  closers.push(
    () => secondary.close(),
    () => client.quit(),
    () => pool.end(),
  );
  return { auth, secondary, pool, reads: () => count };
}

async function csrf(auth: Auth) {
  const res = await auth.handler(new Request(`${ORIGIN}/auth/csrf`));
  return {
    cookie: res.headers.getSetCookie()[0]!.split(';')[0]!,
    token: ((await res.json()) as { csrfToken: string }).csrfToken,
  };
}

async function post(auth: Auth, path: string, cookie: string, body: Record<string, string>) {
  const c = await csrf(auth);
  return auth.handler(
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        cookie: `${c.cookie}; ${cookie}`,
        origin: ORIGIN,
      },
      body: JSON.stringify({ csrfToken: c.token, ...body }),
    }),
  );
}

async function signIn(auth: Auth, email: string): Promise<string> {
  const res = await post(auth, '/auth/callback/credentials', '', { email, password: PASSWORD });
  expect(res.status).toBe(200);
  return res.headers
    .getSetCookie()
    .find((l) => l.startsWith('framework.session-token='))!
    .split(';')[0]!;
}

const userOf = async (auth: Auth, cookie: string) =>
  (await auth.getSession(new Request(`${ORIGIN}/`, { headers: { cookie } }))).user;

/** Two instances on one fresh schema and a per-test channel, with `email` registered. */
async function pair(email: string, ttlMs?: number) {
  const db = await schemas.isolated();
  const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(db);
  await db.destroy();
  const channel = `test:${randomBytes(6).toString('hex')}`;
  const a = await instance(rows[0]!.s, channel, ttlMs);
  const b = await instance(rows[0]!.s, channel, ttlMs);
  await a.auth.adapter!.migrate();
  const user = await passwordAccounts(a.auth.adapter!).register({ email, password: PASSWORD, name: 'Ada' });
  return { a, b, userId: user.id };
}

/** Waits until pub/sub has delivered (a message on the same channel round-trips). */
const settle = () => new Promise((r) => setTimeout(r, 50));

describe.skipIf(!schemas.available || !redisUp)('redisSecondaryStorage with two instances on PostgreSQL', () => {
  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => {});
    await schemas.dropAll();
  });

  it('serves repeated reads from the cache, and a sign-out on A is anonymous on B at the next request', async () => {
    const { a, b } = await pair('ada@example.com');
    const cookie = await signIn(a.auth, 'ada@example.com');
    await settle(); // the sign-in's own invalidation would otherwise race B's first read
    expect((await userOf(b.auth, cookie))?.email).toBe('ada@example.com');
    const before = b.reads();
    for (let i = 0; i < 5; i++) expect((await userOf(b.auth, cookie))?.email).toBe('ada@example.com');
    expect(b.reads()).toBe(before);
    const out = await post(a.auth, '/auth/signout', cookie, {});
    expect(out.status).toBeLessThan(400);
    await settle();
    expect(await userOf(b.auth, cookie)).toBeNull();
    expect(await userOf(a.auth, cookie)).toBeNull();
  });

  it('a role change on A is seen on B', async () => {
    const { a, b, userId } = await pair('bob@example.com');
    const cookie = await signIn(a.auth, 'bob@example.com');
    expect((await userOf(b.auth, cookie))?.role ?? null).toBeNull();
    await a.auth.adapter!.updateUser(userId, { role: 'admin' });
    await settle();
    expect((await userOf(b.auth, cookie))?.role).toBe('admin');
  });

  it('revoking every session of a user on A (ban, password reset) is seen on B', async () => {
    const { a, b, userId } = await pair('carol@example.com');
    const cookie = await signIn(a.auth, 'carol@example.com');
    expect(await userOf(b.auth, cookie)).not.toBeNull();
    await a.auth.adapter!.deleteUserSessions(userId);
    await settle();
    expect(await userOf(b.auth, cookie)).toBeNull();
  });

  it('while the subscriber is down, reads go to the database (no stale cache)', async () => {
    const { a, b } = await pair('dave@example.com');
    const cookie = await signIn(a.auth, 'dave@example.com');
    expect(await userOf(b.auth, cookie)).not.toBeNull();
    await b.secondary.close(); // B no longer hears invalidations
    const before = b.reads();
    expect(await userOf(b.auth, cookie)).not.toBeNull();
    expect(b.reads()).toBe(before + 1);
    await post(a.auth, '/auth/signout', cookie, {});
    expect(await userOf(b.auth, cookie)).toBeNull();
  });
});
