/**
 * `bearer()`: a real server on port 0 with no cookie jar (sign-in, the app's route, revocation), both session
 * strategies, the cookie-vs-bearer rule, the routes that never take a token, CSRF, and malformed headers.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createAuth, type Auth } from '../../auth.js';
import type { AuthPlugin } from '../../contract/types.js';
import { passwordAccounts } from '../../password-accounts.js';
import { EMAIL, ORIGIN, PASSWORD, SECRET, makeFixture } from '../../testing/fixtures.js';
import { apiKeys } from '../api-keys/index.js';
import { bearer } from './index.js';

const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A server on port 0: `/auth/*` is the auth handler; `GET /api/me` answers `auth.getSession`'s user id. */
async function serve(auth: Auth): Promise<string> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers as IncomingHttpHeaders))
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method!,
      headers,
      ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
    });
    let response: Response;
    if (req.url === '/api/me') {
      try {
        const state = await auth.getSession(request);
        response = Response.json({ user: state.user?.id ?? null }, { headers: state.headers });
      } catch (error) {
        response = Response.json({ error: (error as Error).name }, { status: 400 });
      }
    } else response = await auth.handler(request, { ip: req.socket.remoteAddress! });
    const out: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') out[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length) out['set-cookie'] = cookies;
    res.writeHead(response.status, out).end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const json = { 'content-type': 'application/json', accept: 'application/json' };
const errorCode = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;

async function setup(
  strategy: 'database' | 'jwt' = 'database',
  plugins: AuthPlugin<string, any, any, any>[] = [bearer()],
) {
  const f = await makeFixture(strategy, { baseURL: ORIGIN, emailAndPassword: {}, plugins });
  const base = await serve(f.auth);
  /** Signs in as a bearer client (no cookie, `x-auth-mode: bearer`): the token from `set-auth-token`. */
  const signIn = async (email = EMAIL) => {
    const res = await fetch(`${base}/auth/callback/credentials`, {
      method: 'POST',
      headers: { ...json, 'x-auth-mode': 'bearer' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().filter((c) => c.startsWith(f.auth.config.cookies.sessionToken.name))).toEqual([]);
    const token = res.headers.get('set-auth-token');
    expect(token).toMatch(/\./);
    return token!;
  };
  const me = async (headers: Record<string, string>) =>
    ((await (await fetch(`${base}/api/me`, { headers })).json()) as { user: string | null }).user;
  return { ...f, base, signIn, me };
}

describe.each(['database', 'jwt'] as const)('bearer() over HTTP, %s sessions, no cookies', (strategy) => {
  it('signs in without cookies, reaches the app with the token, and a signed-out token is refused', async () => {
    const f = await setup(strategy);
    const token = await f.signIn();
    expect(await f.me({ authorization: `Bearer ${token}` })).toBe(f.userId);
    const session = await fetch(`${f.base}/auth/bearer/session`, { headers: { authorization: `Bearer ${token}` } });
    expect(session.status).toBe(200);
    expect(((await session.json()) as { user: { id: string } }).user.id).toBe(f.userId);

    const out = await fetch(`${f.base}/auth/bearer/sign-out`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}` },
      body: '{}',
    });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-auth-token')).toBe('');
    expect(await f.me({ authorization: `Bearer ${token}` })).toBeNull();
    const after = await fetch(`${f.base}/auth/bearer/session`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);
    expect(await errorCode(after)).toBe('BEARER_INVALID');
  });

  it('signs up as a bearer client too', async () => {
    const f = await setup(strategy);
    const res = await fetch(`${f.base}/auth/signup`, {
      method: 'POST',
      headers: { ...json, 'x-auth-mode': 'bearer' },
      body: JSON.stringify({ email: 'grace@example.com', password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    const token = res.headers.get('set-auth-token')!;
    const user = await f.adapter.getUserByEmail('grace@example.com');
    expect(await f.me({ authorization: `Bearer ${token}` })).toBe(user!.id);
  });
});

describe('bearer() sign-out and the other sessions of the user', () => {
  const signOut = (f: Awaited<ReturnType<typeof setup>>, token: string) =>
    fetch(`${f.base}/auth/bearer/sign-out`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}` },
      body: '{}',
    });

  it('database sessions: ends that token only; another device and the laptop browser stay signed in', async () => {
    const f = await setup('database');
    const phone = await f.signIn();
    const tablet = await f.signIn();
    const laptop = f.client();
    expect((await laptop.signIn()).status).toBe(200);
    expect((await signOut(f, phone)).status).toBe(200);
    expect(await f.me({ authorization: `Bearer ${phone}` })).toBeNull();
    expect(await f.me({ authorization: `Bearer ${tablet}` })).toBe(f.userId);
    expect((await laptop.session())?.user.id).toBe(f.userId);
  });

  it('jwt sessions: a token cannot be withdrawn alone, so every session of the user ends (documented)', async () => {
    const f = await setup('jwt');
    const phone = await f.signIn();
    const tablet = await f.signIn();
    const laptop = f.client();
    expect((await laptop.signIn()).status).toBe(200);
    expect((await signOut(f, phone)).status).toBe(200);
    expect(await f.me({ authorization: `Bearer ${phone}` })).toBeNull();
    expect(await f.me({ authorization: `Bearer ${tablet}` })).toBeNull();
    expect(await laptop.session()).toBeNull();
    // Signing in again works at once: only the sessions issued before the sign-out ended.
    expect(await f.me({ authorization: `Bearer ${await f.signIn()}` })).toBe(f.userId);
  });
});

describe('bearer() sign-out seen from another instance sharing the storage', () => {
  /** Two instances of one app (one secret, one database) on one clock the test moves. */
  async function twoInstances(strategy: 'database' | 'jwt') {
    let now = Date.now();
    const clock = { now: () => now };
    const session = { strategy, revalidateAge: 60 };
    const f = await makeFixture(strategy, {
      baseURL: ORIGIN,
      emailAndPassword: {},
      plugins: [bearer()],
      clock,
      session,
    });
    const other = createAuth({
      secret: SECRET,
      baseURL: ORIGIN,
      adapter: f.adapter,
      emailAndPassword: {},
      plugins: [bearer()],
      clock,
      session,
    });
    const bearerRequest = (path: string, init: RequestInit = {}) =>
      new Request(`${ORIGIN}${path}`, { ...init, headers: { ...json, ...(init.headers as Record<string, string>) } });
    const signIn = async () => {
      const res = await f.auth.handler(
        bearerRequest('/auth/callback/credentials', {
          method: 'POST',
          headers: { 'x-auth-mode': 'bearer' },
          body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
        }),
      );
      return res.headers.get('set-auth-token')!;
    };
    const signOut = (token: string) =>
      f.auth.handler(
        bearerRequest('/auth/bearer/sign-out', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: '{}',
        }),
      );
    /** The user `other` reads from these headers (a token or a cookie). */
    const seenByOther = async (headers: Record<string, string>) =>
      (await other.getSession(new Request(`${ORIGIN}/api/me`, { headers }))).user?.id ?? null;
    return { ...f, signIn, signOut, seenByOther, tick: (seconds: number) => (now += seconds * 1000) };
  }

  it('jwt: the other instance refuses the signed-out token at once (bearer reads are checked against storage) and the user’s browser cookie at its next check, within revalidateAge', async () => {
    const f = await twoInstances('jwt');
    const phone = await f.signIn();
    const laptop = f.client();
    expect((await laptop.signIn()).status).toBe(200);
    const cookie = laptop.cookieHeader();
    expect(await f.seenByOther({ authorization: `Bearer ${phone}` })).toBe(f.userId);
    expect(await f.seenByOther({ cookie })).toBe(f.userId);

    expect((await f.signOut(phone)).status).toBe(200);
    expect(await f.seenByOther({ authorization: `Bearer ${phone}` })).toBeNull();
    // The cookie was confirmed against storage just now: the other instance trusts it until revalidateAge.
    expect(await f.seenByOther({ cookie })).toBe(f.userId);
    f.tick(61);
    expect(await f.seenByOther({ cookie })).toBeNull();
  });

  it('database: only the signed-out session ends, refused by the other instance at once; the browser stays', async () => {
    const f = await twoInstances('database');
    const phone = await f.signIn();
    const tablet = await f.signIn();
    const laptop = f.client();
    expect((await laptop.signIn()).status).toBe(200);
    const cookie = laptop.cookieHeader();
    expect(await f.seenByOther({ authorization: `Bearer ${phone}` })).toBe(f.userId);

    expect((await f.signOut(phone)).status).toBe(200);
    expect(await f.seenByOther({ authorization: `Bearer ${phone}` })).toBeNull();
    expect(await f.seenByOther({ authorization: `Bearer ${tablet}` })).toBe(f.userId);
    expect(await f.seenByOther({ cookie })).toBe(f.userId);
    f.tick(61);
    expect(await f.seenByOther({ cookie })).toBe(f.userId);
    expect(await f.adapter.listSessions(f.userId)).toHaveLength(2);
  });
});

describe('bearer() rules', () => {
  it('a database token is revoked by a sign-out from the browser holding the same session', async () => {
    const f = await setup();
    const token = await f.signIn();
    const name = f.auth.config.cookies.sessionToken.name;
    const c = f.client();
    c.cookies.set(name, token);
    expect((await c.postJson('/auth/signout', {})).status).toBeLessThan(400);
    expect(await f.me({ authorization: `Bearer ${token}` })).toBeNull();
  });

  it('a browser (cookie) sign-in gets no set-auth-token header, so its httpOnly cookie stays out of scripts', async () => {
    const f = await setup();
    const c = f.client();
    const res = await c.signIn();
    expect(res.status).toBe(200);
    expect(res.headers.get('set-auth-token')).toBeNull();
    expect(c.cookies.has(f.auth.config.cookies.sessionToken.name)).toBe(true);
  });

  it('exposes the header to cross-origin scripts only through CORS, for a trusted Origin', async () => {
    const f = await setup();
    const res = await fetch(`${f.base}/auth/callback/credentials`, {
      method: 'POST',
      headers: { ...json, 'x-auth-mode': 'bearer', origin: ORIGIN },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-expose-headers')).toBe('set-auth-token');
    const foreign = await fetch(`${f.base}/auth/callback/credentials`, {
      method: 'POST',
      headers: { ...json, 'x-auth-mode': 'bearer', origin: 'https://evil.example' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('set-auth-token')).toBeNull();
  });

  it('a request with any cookie is a browser request: the CSRF token is needed again', async () => {
    const f = await setup();
    const res = await fetch(`${f.base}/auth/callback/credentials`, {
      method: 'POST',
      headers: { ...json, 'x-auth-mode': 'bearer', cookie: 'theme=dark' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    expect(res.status).toBe(403);
    expect(await errorCode(res)).toBe('CSRF_TOKEN_INVALID');
    const plain = await fetch(`${f.base}/auth/callback/credentials`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    expect(plain.status).toBe(403);
  });

  it('the session cookie wins over a bearer token of another user', async () => {
    const f = await setup();
    const bob = await passwordAccounts(f.adapter).register({ email: 'bob@example.com', password: PASSWORD });
    const bobToken = await f.signIn('bob@example.com');
    const c = f.client();
    expect((await c.signIn()).status).toBe(200);
    const cookie = c.cookieHeader();
    expect(await f.me({ cookie, authorization: `Bearer ${bobToken}` })).toBe(f.userId);
    expect(await f.me({ authorization: `Bearer ${bobToken}` })).toBe(bob.id);
  });

  it('is never accepted on the core routes, which read and set the session cookie only', async () => {
    const f = await setup();
    const token = await f.signIn();
    const auth = { authorization: `Bearer ${token}` };
    const session = await fetch(`${f.base}/auth/session`, { headers: { ...auth, accept: 'application/json' } });
    expect(await session.json()).toBeNull();
    const change = await fetch(`${f.base}/auth/password/change`, {
      method: 'POST',
      headers: { ...json, ...auth },
      body: JSON.stringify({ currentPassword: PASSWORD, newPassword: 'another-long-password' }),
    });
    expect(change.status).toBe(401);
    const del = await fetch(`${f.base}/auth/account/delete`, {
      method: 'POST',
      headers: { ...json, ...auth },
      body: '{}',
    });
    expect(del.status).toBe(401);
    expect(await f.adapter.getUser(f.userId)).not.toBeNull();
    expect(await f.me(auth)).toBe(f.userId);
  });

  it('bearer sign-out refuses a request with cookies', async () => {
    const f = await setup();
    const token = await f.signIn();
    const res = await fetch(`${f.base}/auth/bearer/sign-out`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}`, cookie: 'x=1' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect(await errorCode(res)).toBe('BEARER_WITH_COOKIE');
    expect(await f.me({ authorization: `Bearer ${token}` })).toBe(f.userId);
  });

  it('answers malformed headers with a 4xx (bearer routes) or no session (app routes), never a crash', async () => {
    const f = await setup();
    const token = await f.signIn();
    const bad = [
      'Bearer',
      'Bearer ',
      `Bearer ${token} ${token}`,
      `Bearer ${token}, Bearer ${token}`,
      `Bearer ${token}\u200b`.replace(/[^\x20-\x7e]/g, '%'),
      `Bearer ${'a'.repeat(5000)}.b`,
      `Bearer ${token.slice(0, -1)}`,
      'Bearer ....',
      'Bearer a.b.c',
      `Basic ${token}`,
      `Bearer%20${token}`,
    ];
    for (const header of bad) {
      const res = await fetch(`${f.base}/auth/bearer/session`, { headers: { authorization: header } });
      expect([header.slice(0, 30), res.status]).toStrictEqual([header.slice(0, 30), 401]);
      expect(await f.me({ authorization: header })).toBeNull();
    }
    expect(await f.me({ authorization: `bearer  ${token}` })).toBe(f.userId);
  });

  it('leaves a token that is no session to apiKeys()', async () => {
    const f = await setup('database', [bearer(), apiKeys()]);
    const c = f.client();
    expect((await c.signIn()).status).toBe(200);
    const created = await c.postJson('/auth/api-keys', { name: 'ci' });
    const { key } = (await created.json()) as { key: string };
    expect(await f.me({ authorization: `Bearer ${key}` })).toBe(f.userId);
  });
});
