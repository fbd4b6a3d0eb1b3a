import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuth } from '../../auth.js';
import { sha256Hex } from '../../crypto.js';
import { AuthError } from '../../errors.js';
import { credentials } from '../../providers/credentials.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { passwordAccounts } from '../../password-accounts.js';
import { defineRBAC } from '../../rbac/define.js';
import { hasPermission, hasRole, requirePermission } from '../../rbac/helpers.js';
import { getSession, getUser } from '../../scope.js';
import { ORIGIN, SECRET, TestClient } from '../../testing/fixtures.js';
import { apiKeys, createMemoryApiKeyStorage, isApiKeySession, type ApiKeysOptions } from './index.js';

const quiet = { error: () => {}, warn: () => {} };
const rbac = defineRBAC({
  roles: [
    { id: 'admin', name: 'Admin', permissions: ['*'] },
    { id: 'editor', name: 'Editor', permissions: ['posts:*', 'comments:delete:own'] },
  ],
  defaultRole: 'editor',
});

async function setup(options: Partial<ApiKeysOptions> = {}, extra: Record<string, unknown> = {}) {
  const adapter = createMemoryAdapter();
  const passwords = passwordAccounts(adapter);
  const storage = createMemoryApiKeyStorage();
  const auth = createAuth({
    secret: SECRET,
    adapter,
    rbac,
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: passwords.authorize,
      }),
    ],
    plugins: [apiKeys({ storage, ...options })],
    logger: quiet,
    rateLimit: { login: false },
    ...extra,
  });
  /** A signed-in browser for a new user with `role`. */
  async function user(email: string, role = 'editor') {
    const created = await passwords.register({ email, password: 'correct horse battery' });
    await adapter.updateUser(created.id, { role });
    const browser = new TestClient(auth);
    expect((await browser.signIn(email, 'correct horse battery')).status).toBeLessThan(400);
    return { id: created.id, browser };
  }
  async function create(browser: TestClient, body: Record<string, unknown> = {}) {
    const res = await browser.postJson('/auth/api-keys', body);
    return { res, body: (await res.json()) as Record<string, any> };
  }
  /** Runs `fn` in the request scope of an app request carrying `headers`. */
  const run = <T>(headers: Record<string, string>, fn: () => T) =>
    auth.run(new Request(`${ORIGIN}/api/thing`, { headers }), fn);
  return { auth, adapter, storage, user, create, run };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('apiKeys(): creating, listing, revoking', () => {
  it('shows the key once (fk_<prefix>_<secret>), stores only the SHA-256 of its secret, lists it without secrets', async () => {
    const { user, create, storage } = await setup();
    const { id, browser } = await user('ann@example.com');
    const { res, body } = await create(browser, { name: 'CI', expiresIn: 3600, permissions: 'posts:read posts:edit' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body.key).toMatch(/^fk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(body).toMatchObject({
      prefix: body.key.slice(3, 15),
      name: 'CI',
      permissions: ['posts:read', 'posts:edit'],
      revokedAt: null,
    });
    expect(Date.parse(body.expiresAt) - Date.parse(body.createdAt)).toBe(3_600_000);
    const stored = (await storage.listByUser(id))[0]!;
    expect(stored.secretHash).toBe(await sha256Hex(body.key.slice(16)));
    expect(JSON.stringify(stored)).not.toContain(body.key.slice(16));

    const list = await browser.request('/auth/api-keys', { headers: { accept: 'application/json' } });
    const text = await list.text();
    expect(list.status).toBe(200);
    expect(text).not.toContain(body.key.slice(16));
    expect(text).not.toContain(stored.secretHash);
    expect(JSON.parse(text).keys).toStrictEqual([
      {
        id: body.id,
        prefix: body.prefix,
        name: 'CI',
        permissions: ['posts:read', 'posts:edit'],
        roles: null,
        createdAt: body.createdAt,
        expiresAt: body.expiresAt,
        revokedAt: null,
      },
    ]);
  });

  it('refuses permissions the user does not hold (403), malformed ones and bad fields (400)', async () => {
    const { user, create } = await setup();
    const { browser } = await user('ed@example.com');
    expect((await create(browser, { permissions: 'users:delete' })).body.error.code).toBe('FORBIDDEN');
    expect((await create(browser, { permissions: '*' })).res.status).toBe(403);
    expect((await create(browser, { permissions: 'comments:delete' })).res.status).toBe(403); // holds only :own
    expect((await create(browser, { permissions: 'comments:delete:own' })).res.status).toBe(201);
    for (const bad of [
      { permissions: 'posts' },
      { permissions: 'posts:read; drop' },
      { expiresIn: 0 },
      { expiresIn: -5 },
      { expiresIn: '1e3' },
      { expiresIn: 1.5 },
      { name: 'x'.repeat(101) },
      { name: 'a\u0000b' },
      { name: 'deploy\u202Ekey' },
      { name: 'ci\u200Bbot' },
      { name: 'ops\u2028key' },
    ]) {
      const { res, body } = await create(browser, bad);
      expect([res.status, body.error.code]).toStrictEqual([400, 'INVALID_REQUEST']);
    }
  });

  it('caps lifetimes at maxExpiresIn and active keys at maxKeysPerUser', async () => {
    const { user, create } = await setup({ maxExpiresIn: 600, maxKeysPerUser: 2 });
    const { browser } = await user('cap@example.com');
    expect((await create(browser, { expiresIn: 601 })).res.status).toBe(400);
    const defaulted = (await create(browser)).body;
    expect(Date.parse(defaulted.expiresAt) - Date.parse(defaulted.createdAt)).toBe(600_000);
    await create(browser);
    expect((await create(browser)).body.error.message).toMatch(/At most 2 active API keys/);
    expect((await browser.postJson('/auth/api-keys/revoke', { id: defaulted.id })).status).toBe(200);
    expect((await create(browser)).res.status).toBe(201);
  });

  it('revokes only the owner’s key, once; a revoked key stops working at once', async () => {
    const { user, create, run } = await setup();
    const ann = await user('ann@example.com');
    const bob = await user('bob@example.com');
    const { body } = await create(ann.browser);
    const auth = { authorization: `Bearer ${body.key}` };
    expect(await run(auth, () => getUser()?.id)).toBe(ann.id);
    expect((await bob.browser.postJson('/auth/api-keys/revoke', { id: body.id })).status).toBe(404);
    expect(await run(auth, () => getUser()?.id)).toBe(ann.id);
    expect((await ann.browser.postJson('/auth/api-keys/revoke', { id: body.id })).status).toBe(200);
    expect((await ann.browser.postJson('/auth/api-keys/revoke', { id: body.id })).status).toBe(404);
    expect(await run(auth, () => getUser())).toBeNull();
  });

  it('the routes need a signed-in session and the CSRF token', async () => {
    const { auth, user } = await setup();
    const anonymous = new TestClient(auth);
    expect((await anonymous.postJson('/auth/api-keys', {})).status).toBe(401);
    expect((await anonymous.request('/auth/api-keys', { headers: { accept: 'application/json' } })).status).toBe(401);
    const { browser } = await user('csrf@example.com');
    const forged = await browser.request('/auth/api-keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    });
    expect(forged.status).toBe(403);
    const crossSite = await browser.postJson('/auth/api-keys', {}, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
  });
});

describe('apiKeys(): requests with a key', () => {
  it('Bearer and x-api-key resolve to the owner, type api-key, limited to the key’s permissions, with no cookie', async () => {
    const { user, create, run, auth } = await setup();
    const { id, browser } = await user('admin@example.com', 'admin');
    const { key } = (await create(browser, { permissions: 'posts:read comments:delete:own' })).body;
    const variants: Record<string, string>[] = [
      { authorization: `Bearer ${key}` },
      { authorization: `bearer  ${key}` },
      { 'x-api-key': key },
    ];
    for (const headers of variants) {
      const seen = await run(headers, () => {
        const session = getSession();
        return {
          id: getUser()?.id,
          apiKey: isApiKeySession(session) && session.type,
          read: hasPermission('posts:read'),
          edit: hasPermission('posts:edit'),
          all: hasPermission('*'),
          ownComment: hasPermission('comments:delete', { ownerId: id }),
          othersComment: hasPermission('comments:delete', { ownerId: 'other' }),
          admin: hasRole('admin'),
        };
      });
      expect(seen).toStrictEqual({
        id,
        apiKey: 'api-key',
        read: true,
        edit: false,
        all: false,
        ownComment: true,
        othersComment: false,
        // posts:read is not the admin role's full permission set, and the key was granted no role.
        admin: false,
      });
      const state = await auth.getSession(new Request(`${ORIGIN}/x`, { headers }));
      expect([...state.headers]).toStrictEqual([]);
    }
    await expect(
      run({ authorization: `Bearer ${key}` }, () => requirePermission('posts:delete')),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect((await run({ authorization: `Bearer ${key}` }, () => requirePermission('posts:read'))).id).toBe(id);
  });

  it('a key without permissions acts with the owner’s full permissions, and never more', async () => {
    const { user, create, run } = await setup();
    const { browser } = await user('ed2@example.com');
    const { key } = (await create(browser)).body;
    expect(
      await run({ 'x-api-key': key }, () => [hasPermission('posts:delete'), hasPermission('users:delete')]),
    ).toStrictEqual([true, false]);
  });

  it('wrong, malformed and expired keys give no session; a deleted user’s key is refused (401)', async () => {
    const { user, create, run, adapter } = await setup();
    const { id, browser } = await user('gone@example.com');
    const { key } = (await create(browser, { expiresIn: 60 })).body as { key: string };
    const flipped = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    for (const bad of [
      flipped,
      key.slice(0, -1),
      `${key}x`,
      key.replace('fk_', 'fx_'),
      `fk_${'0'.repeat(12)}_${key.slice(16)}`,
      '',
      'Bearer',
      key.toUpperCase(),
    ]) {
      expect(await run({ authorization: `Bearer ${bad}` }, () => getUser())).toBeNull();
      expect(await run({ 'x-api-key': bad }, () => getUser())).toBeNull();
    }
    expect(await run({ authorization: `Basic ${key}` }, () => getUser())).toBeNull();
    expect(await run({ authorization: `Bearer ${key}` }, () => getUser()?.id)).toBe(id);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    expect(await run({ authorization: `Bearer ${key}` }, () => getUser())).toBeNull();
    vi.useRealTimers();
    const { key: live } = (await create(browser)).body as { key: string };
    await adapter.deleteUser(id);
    await expect(run({ authorization: `Bearer ${live}` }, () => getUser())).rejects.toMatchObject({
      code: 'CREDENTIAL_REFUSED',
      status: 401,
    });
  });

  it('a session cookie wins over a key', async () => {
    const { user, create, auth } = await setup();
    const ann = await user('ann@example.com');
    const bob = await user('bob@example.com');
    const { key } = (await create(bob.browser)).body;
    const state = await auth.getSession(
      new Request(`${ORIGIN}/x`, { headers: { cookie: ann.browser.cookieHeader(), authorization: `Bearer ${key}` } }),
    );
    expect([state.user?.id, isApiKeySession(state.session)]).toStrictEqual([ann.id, false]);
  });

  it('each key has its own budget: over it, 429 RATE_LIMITED with Retry-After; wrong secrets spend nothing', async () => {
    const { user, create, run, auth } = await setup({ rateLimit: { limit: 2, window: 60 } });
    const { browser } = await user('busy@example.com');
    const first = (await create(browser)).body.key as string;
    const second = (await create(browser)).body.key as string;
    for (let i = 0; i < 5; i++)
      await run({ authorization: `Bearer ${first.slice(0, -1)}${first.endsWith('A') ? 'B' : 'A'}` }, () => null);
    await run({ authorization: `Bearer ${first}` }, () => null);
    await run({ authorization: `Bearer ${first}` }, () => null);
    const refused = await run({ authorization: `Bearer ${first}` }, () => null).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AuthError);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    const response = auth.toResponse(
      refused,
      new Request(`${ORIGIN}/api`, { headers: { accept: 'application/json' } }),
    )!;
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(response.headers.get('ratelimit-limit')).toBe('2');
    expect(((await response.json()) as any).error.code).toBe('RATE_LIMITED');
    expect(await run({ authorization: `Bearer ${second}` }, () => getUser() !== null)).toBe(true);
  });

  it('invalid keys spend the client IP’s own budget: past it every key from that IP is 429, other IPs are untouched', async () => {
    const { user, create, auth } = await setup({ invalidKeyLimit: { limit: 3, window: 60 } });
    const { id, browser } = await user('probe@example.com');
    const { key } = (await create(browser)).body as { key: string };
    const runFrom = (ip: string | undefined, presented: string) =>
      auth.run(
        new Request(`${ORIGIN}/api/thing`, { headers: { authorization: `Bearer ${presented}` } }),
        () => getUser()?.id ?? null,
        ip ? { ip } : undefined,
      );
    const wrong = (n: number) => `fk_${'0'.repeat(12)}_${String(n).padStart(key.length - 16, 'x')}`;
    for (let n = 0; n < 3; n++) expect(await runFrom('203.0.113.9', wrong(n))).toBeNull();
    await expect(runFrom('203.0.113.9', wrong(3))).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    const refused = await runFrom('203.0.113.9', key).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(auth.toResponse(refused, new Request(`${ORIGIN}/api`))!.headers.get('retry-after'))).toBeGreaterThan(
      0,
    );
    expect(await runFrom('198.51.100.1', key)).toBe(id);
    // Without a client IP (an adapter that cannot tell), nothing is counted.
    for (let n = 0; n < 10; n++) expect(await runFrom(undefined, wrong(n))).toBeNull();
    expect(await runFrom(undefined, key)).toBe(id);
    // The budget can be turned off, and is checked at createAuth.
    expect(() => apiKeys({ storage: createMemoryApiKeyStorage(), invalidKeyLimit: { limit: 0 } })).toThrow(
      /invalidKeyLimit\.limit/,
    );
  });

  it('a failing limiter storage refuses (503 RATE_LIMIT_UNAVAILABLE), never lets the key through', async () => {
    const broken = {
      algorithm: 'fixed-window',
      backend: 'memory',
      counter: () => ({
        consume: () => Promise.reject(new Error('down')),
        peek: () => Promise.reject(new Error('down')),
        reset: async () => {},
      }),
    } as const;
    const { user, create, run } = await setup({ rateLimit: { storage: broken } });
    const { browser } = await user('down@example.com');
    const { key } = (await create(browser)).body;
    await expect(run({ authorization: `Bearer ${key}` }, () => getUser())).rejects.toMatchObject({
      code: 'RATE_LIMIT_UNAVAILABLE',
      status: 503,
    });
  });
});

describe('apiKeys(): keys never count on the auth routes', () => {
  it('a key cannot create, list or revoke keys, read /session, or get provider tokens', async () => {
    const { auth, user, create } = await setup();
    const { browser } = await user('owner@example.com');
    const { key, id } = (await create(browser)).body;
    const bearer = { authorization: `Bearer ${key}` };
    // A client holding only the key (plus a CSRF cookie it fetched itself).
    const robot = new TestClient(auth);
    expect((await robot.postJson('/auth/api-keys', {}, bearer)).status).toBe(401);
    expect((await robot.postJson('/auth/api-keys/revoke', { id }, bearer)).status).toBe(401);
    expect((await robot.request('/auth/api-keys', { headers: { ...bearer, accept: 'application/json' } })).status).toBe(
      401,
    );
    expect(
      await (await robot.request('/auth/session', { headers: { ...bearer, accept: 'application/json' } })).json(),
    ).toBeNull();
    const update = await robot.postJson('/auth/session', { data: '{}' }, bearer);
    expect(update.headers.getSetCookie().filter((c) => c.startsWith('authjs') || c.includes('session'))).toStrictEqual(
      [],
    );
    expect(await auth.getAccessToken(new Request(`${ORIGIN}/x`, { headers: bearer }), 'github')).toBeNull();
    expect(
      (
        (await browser
          .request('/auth/api-keys', { headers: { accept: 'application/json' } })
          .then((r) => r.json())) as any
      ).keys[0].revokedAt,
    ).toBeNull();
  });

  it('needs an adapter and a storage at createAuth', () => {
    expect(() =>
      createAuth({
        secret: SECRET,
        providers: [],
        plugins: [apiKeys({ storage: createMemoryApiKeyStorage() })],
        logger: quiet,
      }),
    ).toThrow(/needs `adapter`/);
    expect(() => apiKeys({ storage: {} } as ApiKeysOptions)).toThrow(/`storage` must be an API key storage/);
    expect(() => apiKeys({ storage: createMemoryApiKeyStorage(), rateLimit: { limit: 0 } })).toThrow(/rateLimit.limit/);
  });
});

describe('apiKeys(): the account pre-hijacking defence', () => {
  it('revokes the keys made while the email was unproven when its owner proves it by magic link', async () => {
    const sent: { url: string }[] = [];
    const { email } = await import('../../providers/email.js');
    const holder: { adapter?: ReturnType<typeof createMemoryAdapter> } = {};
    const { adapter, user, create, run, auth } = await setup(
      {},
      {
        providers: [
          credentials({
            credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
            authorize: (c) => passwordAccounts(holder.adapter!).authorize(c),
          }),
          email({ from: 'login@app.test', sendVerificationRequest: async (p) => void sent.push(p) }),
        ],
      },
    );
    holder.adapter = adapter as ReturnType<typeof createMemoryAdapter>;
    // The attacker registered the victim's address with a password and made a key.
    const attacker = await user('victim@example.com');
    const { body } = await create(attacker.browser, { name: 'persist' });
    expect(await run({ authorization: `Bearer ${body.key}` }, () => getUser()?.id)).toBe(attacker.id);
    expect((await adapter.getUser(attacker.id))?.emailVerified).toBeNull();
    // The real owner proves the address.
    const owner = new TestClient(auth);
    await owner.postJson('/auth/signin/email', { email: 'victim@example.com' });
    const link = new URL(sent[0]!.url);
    const res = await owner.postJson('/auth/callback/email', {
      token: link.searchParams.get('token')!,
      email: 'victim@example.com',
    });
    expect(res.status).toBe(200);
    expect(await run({ authorization: `Bearer ${body.key}` }, () => getUser())).toBeNull();
  });
});

describe('apiKeys(): account deletion', () => {
  it('a key cannot delete the account; deleting it from a browser revokes every key (userDeleted hook)', async () => {
    const { auth, user, create, storage } = await setup();
    const { id, browser } = await user('leaver@example.com');
    const { key } = (await create(browser)).body;
    const robot = new TestClient(auth);
    expect((await robot.postJson('/auth/account/delete', {}, { authorization: `Bearer ${key}` })).status).toBe(401);
    expect((await storage.listByUser(id))[0]!.revokedAt).toBeNull();
    expect((await browser.postJson('/auth/account/delete', {})).status).toBe(200);
    expect((await storage.listByUser(id)).every((k) => k.revokedAt instanceof Date)).toBe(true);
  });
});
