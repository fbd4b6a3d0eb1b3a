/**
 * `redisSecondaryStorage` keeps verification tokens and the default rate-limit counters in Redis, shared by
 * every instance: the storage conformance suite on the token methods, a magic link sent by one instance and
 * used on another (once), and a login budget spent across two instances. Real Redis.
 */
import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { afterAll, describe, expect, it } from 'vitest';
import { REDIS_URL, serviceAvailable } from '../../../test-support/services.js';
import { createAuth, type Auth } from '../auth.js';
import { credentials } from '../providers/credentials.js';
import { email, type EmailParams } from '../providers/email.js';
import { runStorageConformance } from '../storage/conformance.js';
import { TestClient } from '../testing/fixtures.js';
import { createMemoryAdapter } from '../storage/memory.js';
import type { StorageAdapter } from '../storage/types.js';
import { redisSecondaryStorage } from './redis.js';
import { withRedisVerificationTokens } from './redis-tokens.js';

const redisUp = await serviceAvailable('redis');
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => {});
});

async function client() {
  const c = await createClient({ url: REDIS_URL }).connect();
  closers.push(() => c.quit());
  return c;
}
const prefix = () => `test:${randomBytes(6).toString('hex')}:`;

describe.runIf(redisUp)('verification tokens in Redis', async () => {
  const redis = redisUp ? await client() : undefined;
  runStorageConformance('memory adapter with verification tokens in Redis', async () => ({
    adapter: withRedisVerificationTokens(createMemoryAdapter(), redis!, prefix()),
  }));
});

/** An instance: its own secondary storage and Redis client, on a shared database (`adapter`). */
async function instance(adapter: StorageAdapter, keyPrefix: string, sent: EmailParams[]): Promise<Auth> {
  const c = await client();
  const secondary = redisSecondaryStorage(c, { keyPrefix, channel: `${keyPrefix}invalidate` });
  closers.push(() => secondary.close());
  await secondary.ready();
  return createAuth({
    secret: 'shared-secret-shared-secret-shared-secret',
    adapter,
    secondaryStorage: secondary,
    providers: [
      email({ from: 'login@app.test', sendVerificationRequest: async (p) => void sent.push(p) }),
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: async () => null,
      }),
    ],
  });
}

/** A JSON POST with a fresh CSRF token, from client address `ip`. */
function postJson(auth: Auth, path: string, body: Record<string, string>, ip: string): Promise<Response> {
  const client = new TestClient(auth);
  client.ip = ip;
  return client.postJson(path, body);
}

describe.runIf(redisUp)('redisSecondaryStorage shares tokens and rate limits between instances', () => {
  it('a magic link sent by instance A signs in on instance B, once; the database never holds the token', async () => {
    const database = createMemoryAdapter();
    const keyPrefix = prefix();
    const sent: EmailParams[] = [];
    const a = await instance(database, keyPrefix, sent);
    const b = await instance(database, keyPrefix, sent);
    const ip = `10.1.${Math.floor(Math.random() * 250)}.1`;
    expect((await postJson(a, '/auth/signin/email', { email: 'ada@example.com' }, ip)).status).toBe(200);
    const link = new URL(sent[0]!.url);
    const token = link.searchParams.get('token')!;
    // Not in the database: the shared adapter's own store has nothing to consume.
    const { sha256Hex } = await import('../crypto.js');
    expect(
      await database.useVerificationToken({
        identifier: 'magic-link:ada@example.com',
        tokenHash: await sha256Hex(token),
      }),
    ).toBeNull();
    const use = (auth: Auth) => postJson(auth, '/auth/callback/email', { token, email: 'ada@example.com' }, ip);
    const first = await use(b);
    expect(first.status).toBe(200);
    expect(first.headers.getSetCookie().some((c) => c.startsWith('framework.session-token='))).toBe(true);
    const again = await use(a);
    expect(again.status).toBe(400);
  });

  it('the login budget is counted in Redis: five failures spread over A and B, the sixth is refused', async () => {
    const database = createMemoryAdapter();
    const keyPrefix = prefix();
    const a = await instance(database, keyPrefix, []);
    const b = await instance(database, keyPrefix, []);
    const who = `${randomBytes(4).toString('hex')}@example.com`;
    const ip = `10.2.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    const attempt = (auth: Auth) => postJson(auth, '/auth/callback/credentials', { email: who, password: 'wrong' }, ip);
    // Failures count per (client IP, account): each instance alone has seen at most three.
    for (const auth of [a, b, a, b, a]) expect((await attempt(auth)).status).toBe(401);
    const refused = await attempt(b);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
  });

  it('with rateLimits: false each instance counts alone', async () => {
    const c = await client();
    const secondary = redisSecondaryStorage(c, { keyPrefix: prefix(), rateLimits: false, channel: prefix() });
    closers.push(() => secondary.close());
    expect(secondary.rateLimitStorage).toBeUndefined();
  });
});
