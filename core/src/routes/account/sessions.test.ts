/**
 * `GET /sessions` and `POST /sessions/revoke`, in process.
 */
import { describe, expect, it } from 'vitest';
import { makeFixture, EMAIL, PASSWORD, type TestClient } from '../../testing/fixtures.js';
import { passwordAccounts } from '../../password-accounts.js';
import type { AuthPlugin } from '../../contract/types.js';
import { createMemoryAdapter } from '../../storage/memory.js';

const JSON_GET = { headers: { accept: 'application/json' } };

/** A signed-in client with a User-Agent and an IP address. */
async function browser(
  make: () => TestClient,
  userAgent: string,
  ip: string,
  email = EMAIL,
  password = PASSWORD,
): Promise<TestClient> {
  const c = make();
  c.ip = ip;
  const res = await c.postJson('/auth/callback/credentials', { email, password }, { 'user-agent': userAgent });
  expect(res.status).toBe(200);
  return c;
}

const sessionIdOf = (c: TestClient) => c.cookies.get('framework.session-token')!.split('.')[0]!;

async function list(c: TestClient) {
  const res = await c.request('/auth/sessions', JSON_GET);
  return {
    status: res.status,
    body: (await res.json()) as { sessions: Array<Record<string, unknown>> } & { error?: { code: string } },
  };
}

describe('GET /sessions', () => {
  it("lists the caller's sessions with metadata, the current one marked, never a token", async () => {
    const { client } = await makeFixture('database');
    const laptop = await browser(client, 'Laptop/1.0', '203.0.113.5');
    const phone = await browser(client, 'Phone/2.0', '2001:db8::7');
    const { status, body } = await list(laptop);
    expect(status).toBe(200);
    expect(body.sessions).toHaveLength(2);
    expect(body.sessions[0]).toMatchObject({
      id: sessionIdOf(laptop),
      current: true,
      userAgent: 'Laptop/1.0',
      ip: '203.0.113.5',
    });
    expect(body.sessions[1]).toMatchObject({
      id: sessionIdOf(phone),
      current: false,
      userAgent: 'Phone/2.0',
      ip: '2001:db8::7',
    });
    for (const s of body.sessions) {
      expect(Object.keys(s).sort()).toEqual([
        'createdAt',
        'current',
        'expires',
        'id',
        'ip',
        'lastActiveAt',
        'userAgent',
      ]);
      expect(new Date(s.createdAt as string).toISOString()).toBe(s.createdAt);
      expect(Date.parse(s.lastActiveAt as string)).toBeGreaterThanOrEqual(Date.parse(s.createdAt as string));
    }
    const text = JSON.stringify(body);
    for (const c of [laptop, phone])
      expect(text).not.toContain(c.cookies.get('framework.session-token')!.split('.')[1]!);
  });

  it("shows only the caller's own sessions", async () => {
    const { client, adapter } = await makeFixture('database');
    await passwordAccounts(adapter).register({ email: 'bob@example.com', password: 'bobs-password' });
    const ada = await browser(client, 'A', '198.51.100.1');
    await browser(client, 'B', '198.51.100.2', 'bob@example.com', 'bobs-password');
    expect((await list(ada)).body.sessions.map((s) => s.userAgent)).toEqual(['A']);
  });

  it('asks JSON clients to sign in (401) and sends browsers to the sign-in page', async () => {
    const { client } = await makeFixture('database');
    expect(await list(client())).toEqual({
      status: 401,
      body: { error: { code: 'UNAUTHENTICATED', message: 'Sign in first' } },
    });
    const page = await client().request('/auth/sessions', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fauth%2Fsessions');
  });

  it('renders a no-JS page with a revoke form per session, escaping what the client sent', async () => {
    const { client } = await makeFixture('database');
    const laptop = await browser(client, '<script>alert(1)</script>', '203.0.113.5');
    const other = await browser(client, 'Other', '203.0.113.6');
    const res = await laptop.request('/auth/sessions', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;</strong> (this device)');
    expect(html).toContain(`name="id" value="${sessionIdOf(other)}"`);
    expect(html).toContain('name="others" value="true"');
    expect(html.match(/<form method="post" action="\/auth\/sessions\/revoke">/g)).toHaveLength(3);
    const token = /name="csrfToken" value="([^"]+)"/.exec(html)![1]!;
    // The page's form works as it is: the browser posts it back.
    const revoke = await laptop.request('/auth/sessions/revoke', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: new URLSearchParams({ csrfToken: token, id: sessionIdOf(other) }).toString(),
    });
    expect(revoke.status).toBe(303);
    expect(revoke.headers.get('location')).toBe('/auth/sessions');
    expect(await other.session()).toBeNull();
  });

  it('is NOT_SUPPORTED (400) under the jwt strategy, for listing and revoking', async () => {
    const { client } = await makeFixture('jwt');
    const c = client();
    await c.signIn();
    expect(await list(c)).toMatchObject({ status: 400, body: { error: { code: 'NOT_SUPPORTED' } } });
    const revoke = await c.postJson('/auth/sessions/revoke', { others: true });
    expect(revoke.status).toBe(400);
    expect(await revoke.json()).toMatchObject({ error: { code: 'NOT_SUPPORTED' } });
  });

  it("never answers a plugin's credential (an API key): only the session cookie counts", async () => {
    const adapter = createMemoryAdapter();
    const apiKey: AuthPlugin = {
      id: 'keyish',
      hooks: {
        async resolveSession(r) {
          const user = await adapter.getUserByEmail(EMAIL);
          if (!user || !r.headers.get('authorization')) return undefined;
          return {
            session: { user, expires: new Date(Date.now() + 1e6) },
            user,
            expired: false,
            headers: new Headers(),
          };
        },
      },
    };
    const { client, userId, auth } = await makeFixture('database', { adapter, plugins: [apiKey] });
    // The plugin does sign the request in for the app's own routes.
    expect(
      (await auth.getSession(new Request('http://app.test/', { headers: { authorization: 'Bearer key' } }))).user?.id,
    ).toBe(userId);
    const c = client();
    const res = await c.request('/auth/sessions', {
      headers: { accept: 'application/json', authorization: 'Bearer key' },
    });
    expect(res.status).toBe(401);
    const del = await c.postJson('/auth/account/delete', {}, { authorization: 'Bearer key' });
    expect(del.status).toBe(401);
    expect(await adapter.getUser(userId)).not.toBeNull();
  });
});

describe('POST /sessions/revoke', () => {
  it('ends another session of the caller by id; its next request is anonymous', async () => {
    const { client } = await makeFixture('database');
    const laptop = await browser(client, 'Laptop', '203.0.113.5');
    const phone = await browser(client, 'Phone', '203.0.113.6');
    const res = await laptop.postJson('/auth/sessions/revoke', { id: sessionIdOf(phone) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, revoked: 1 });
    expect(await phone.session()).toBeNull();
    expect((await laptop.session())?.user.email).toBe(EMAIL);
  });

  it("does nothing with another user's session id, and answers exactly as for an unknown id", async () => {
    const { client, adapter } = await makeFixture('database');
    await passwordAccounts(adapter).register({ email: 'bob@example.com', password: 'bobs-password' });
    const ada = await browser(client, 'A', '198.51.100.1');
    const bob = await browser(client, 'B', '198.51.100.2', 'bob@example.com', 'bobs-password');
    const theirs = await ada.postJson('/auth/sessions/revoke', { id: sessionIdOf(bob) });
    const unknown = await ada.postJson('/auth/sessions/revoke', { id: 'no-such-session-id-at-all' });
    expect([theirs.status, unknown.status]).toEqual([200, 200]);
    expect(await theirs.json()).toEqual(await unknown.json());
    expect((await bob.session())?.user.email).toBe('bob@example.com');
  });

  it('{others: true} ends every session but the current one', async () => {
    const { client } = await makeFixture('database');
    const [a, b, c] = [
      await browser(client, 'A', '192.0.2.1'),
      await browser(client, 'B', '192.0.2.2'),
      await browser(client, 'C', '192.0.2.3'),
    ];
    const res = await a.postJson('/auth/sessions/revoke', { others: true });
    expect(await res.json()).toEqual({ ok: true, revoked: 2 });
    expect(await b.session()).toBeNull();
    expect(await c.session()).toBeNull();
    expect((await list(a)).body.sessions.map((s) => s.userAgent)).toEqual(['A']);
  });

  it('revoking the current session signs the caller out', async () => {
    const { client } = await makeFixture('database');
    const a = await browser(client, 'A', '192.0.2.1');
    const res = await a.postJson('/auth/sessions/revoke', { id: sessionIdOf(a) });
    expect(res.headers.get('set-cookie')).toMatch(/framework\.session-token=;.*Max-Age=0/i);
    expect(await a.session()).toBeNull();
  });

  it('refuses a body with neither id nor others (400), and anonymous callers (401)', async () => {
    const { client } = await makeFixture('database');
    const a = await browser(client, 'A', '192.0.2.1');
    const bad = await a.postJson('/auth/sessions/revoke', {});
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'INVALID_REQUEST' } });
    expect((await client().postJson('/auth/sessions/revoke', { others: true })).status).toBe(401);
  });

  it.each(['/auth/sessions/revoke', '/auth/account/unlink', '/auth/account/delete'])(
    '%s is CSRF-checked: no token gives 403',
    async (path) => {
      const { client, adapter, userId } = await makeFixture('database');
      const a = await browser(client, 'A', '192.0.2.1');
      const res = await a.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ others: true, providerId: 'credentials', password: PASSWORD }),
      });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: { code: 'CSRF_TOKEN_INVALID' } });
      const crossSite = await a.postJson(path, { others: true }, { origin: 'https://evil.test' });
      expect(crossSite.status).toBe(403);
      expect(await adapter.getUser(userId)).not.toBeNull();
      expect(await adapter.listAccounts(userId)).toHaveLength(1);
    },
  );
});
