/**
 * The adapter conformance suite: HTTP scenarios every adapter's example app
 * must pass over a real server, so the adapters cannot drift apart.
 *
 * The app under test follows the examples' contract:
 * - the auth routes at `/auth`, with a `credentials` provider reading
 *   `email` and `password`;
 * - sign-up is the kit's own (`createAuth({ emailAndPassword })`): `GET
 *   /auth/signup` renders a form with a hidden `csrfToken` field; `POST
 *   /auth/signup` (form: `csrfToken`, `email`, `password`, `name`) signs the
 *   person in and answers 303 to `/`, 409 for a taken email, 403 without token;
 * - `GET /` shows `<strong id="user-email">EMAIL</strong>` when signed in;
 * - `GET /protected` uses `requireAuth()`: 200 with `Hello, NAME` signed in,
 *   302 to `/auth/signin?callbackUrl=%2Fprotected` signed out.
 *
 * Optional scenarios are switched on by {@link ConformanceOptions} flags.
 *
 * @example
 * ```ts
 * runAdapterConformance('express', async () => {
 *   const server = await listen(app);
 *   return { baseUrl: server.url, close: server.close };
 * }, { api: { path: '/api/me' } });
 * ```
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar } from 'tough-cookie';
import { looksLikeStack, rawRequest, singleConnectionAgent } from './raw-http.js';

/** A running app: its origin (`http://127.0.0.1:PORT`) and how to stop it. */
export interface RunningApp {
  baseUrl: string;
  close(): Promise<void>;
}

/** A listening Node server, as `http.Server` and @hono/node-server's `serve()` give. */
export interface ListeningServer {
  address(): AddressInfo | string | null;
  close(callback: (error?: Error) => void): unknown;
}

/**
 * A {@link RunningApp} for a server listening on 127.0.0.1: its origin, and a
 * `close` that stops the server, then runs `cleanup` (close the app, remove
 * its files).
 */
export function runningApp(server: ListeningServer, cleanup: () => Promise<void>): RunningApp {
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await cleanup();
    },
  };
}

/** A SQLite path in a new temporary folder, and `remove()` to delete the folder. */
export async function tempDatabase(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { path: join(dir, 'app.db'), remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Optional scenarios, each for a feature the app may not serve yet. */
export interface ConformanceOptions {
  /** A JSON route using `requireAuth({throwError: true})` and answering `{email}`: 401 `UNAUTHENTICATED` signed out. */
  api?: { path: string };
  /**
   * A page only users with the admin role may see (403 `FORBIDDEN` for others), and a seeded admin.
   * `forbiddenPage`: the 403 is the framework's own error page even for JSON clients (React Router
   * renders a loader's thrown Response in its error boundary), so only the status is checked.
   */
  admin?: { path: string; email: string; password: string; forbiddenPage?: boolean };
  /** A webhook: `sign(body)` gives the headers of a valid signature. Answers 200 signed, 401 otherwise, 405 for GET. */
  webhook?: { path: string; sign(body: string): Record<string, string> };
  /**
   * `attempts` wrong passwords are answered; the next one is 429. Needs an
   * app whose login limit is `attempts` per account and per IP, so run it on
   * an app instance of its own (the other scenarios sign in many times from
   * 127.0.0.1). The examples cover it in examples/hono/src/rate-limit.test.ts.
   */
  rateLimit?: { attempts: number };
}

/** fetch with a cookie jar, like a browser tab: never follows redirects; POSTs carry `Origin`. */
export interface CookieClient {
  jar: CookieJar;
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** Posts urlencoded fields. */
  form(path: string, fields: Record<string, string>): Promise<Response>;
  /** Posts JSON with `Accept: application/json`. */
  json(path: string, body: Record<string, string>): Promise<Response>;
  /** The value of a cookie in the jar, if set. */
  cookie(name: string): Promise<string | undefined>;
}

/**
 * A {@link CookieClient} for `baseUrl`. Pass `jar` to carry cookies over to
 * another client (an app restarted on a new port of the same host).
 * @example
 * ```ts
 * const tab = cookieClient('http://127.0.0.1:3000');
 * const res = await tab.fetch('/auth/session', { headers: { accept: 'application/json' } });
 * ```
 */
export function cookieClient(baseUrl: string, jar: CookieJar = new CookieJar()): CookieClient {
  const client: CookieClient = {
    jar,
    async fetch(path, init = {}) {
      const url = new URL(path, baseUrl).href;
      const headers = new Headers(init.headers);
      const cookie = await jar.getCookieString(url);
      if (cookie) headers.set('cookie', cookie);
      if (init.method && init.method !== 'GET' && !headers.has('origin'))
        headers.set('origin', new URL(baseUrl).origin);
      const res = await fetch(url, { ...init, headers, redirect: 'manual' });
      for (const line of res.headers.getSetCookie()) await jar.setCookie(line, url);
      return res;
    },
    form: (path, fields) =>
      client.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      }),
    json: (path, body) =>
      client.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      }),
    async cookie(name) {
      return (await jar.getCookies(baseUrl)).find((c) => c.key === name)?.value;
    },
  };
  return client;
}

/** The hidden `csrfToken` field of an HTML form. */
export const csrfFrom = (html: string): string => /name="csrfToken" value="([^"]+)"/.exec(html)?.[1] ?? '';

const SESSION_COOKIE = 'framework.session-token';
const JSON_ACCEPT = { headers: { accept: 'application/json' } };

/**
 * Declares the conformance tests for one adapter. `start` runs once before
 * them (a fresh app on port 0 with an empty database); `close` runs after.
 * Each scenario uses fresh cookie jars and its own email addresses.
 *
 * @param name the adapter's name, shown in the test titles.
 * @param start starts the app; see {@link RunningApp}.
 * @param options optional scenarios ({@link ConformanceOptions}).
 */
export function runAdapterConformance(
  name: string,
  start: () => Promise<RunningApp>,
  options: ConformanceOptions = {},
): void {
  describe(`adapter conformance: ${name}`, () => {
    let app: RunningApp;
    let counter = 0;
    const tab = () => cookieClient(app.baseUrl);
    const newEmail = () => `person-${Date.now().toString(36)}-${++counter}@example.com`;
    const password = 'correct-horse-battery';

    beforeAll(async () => {
      app = await start();
    });
    afterAll(async () => {
      await app?.close();
    });

    async function register(email: string, name = 'Grace'): Promise<Response> {
      const b = tab();
      const page = await b.fetch('/auth/signup');
      expect(page.status).toBe(200);
      return b.form('/auth/signup', { csrfToken: csrfFrom(await page.text()), email, password, name });
    }

    async function signedIn(email: string, pass = password): Promise<CookieClient> {
      const b = tab();
      const { csrfToken } = (await (await b.fetch('/auth/csrf')).json()) as { csrfToken: string };
      const res = await b.json('/auth/callback/credentials', { csrfToken, email, password: pass });
      expect(res.status).toBe(200);
      return b;
    }

    it('serves the auth routes with JSON for JSON clients', async () => {
      const b = tab();
      const providers = (await (await b.fetch('/auth/providers')).json()) as Record<string, { type: string }>;
      expect(providers.credentials?.type).toBe('credentials');
      const csrf = await b.fetch('/auth/csrf');
      expect(csrf.status).toBe(200);
      expect(csrf.headers.get('content-type')).toContain('application/json');
      expect(((await csrf.json()) as { csrfToken: string }).csrfToken).toMatch(/\S{16,}/);
      expect(csrf.headers.getSetCookie().join('\n')).toMatch(/HttpOnly/i);
      const session = await b.fetch('/auth/session', JSON_ACCEPT);
      expect(session.status).toBe(200);
      expect(await session.json()).toBeNull();
      const signinPage = await b.fetch('/auth/signin');
      expect(signinPage.headers.get('content-type')).toContain('text/html');
      expect(csrfFrom(await signinPage.text())).not.toBe('');
    });

    it('answers 404 for unknown auth routes and 405 with Allow for wrong methods', async () => {
      const b = tab();
      const missing = await b.fetch('/auth/nope', JSON_ACCEPT);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
      const wrong = await b.fetch('/auth/csrf', { method: 'DELETE', headers: { accept: 'application/json' } });
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toContain('GET');
    });

    it('refuses POSTs without a CSRF token or from another origin', async () => {
      const b = tab();
      const noToken = await b.json('/auth/callback/credentials', { email: 'x@example.com', password });
      expect(noToken.status).toBe(403);
      expect(await noToken.json()).toMatchObject({ error: { code: 'CSRF_TOKEN_INVALID' } });
      const { csrfToken } = (await (await b.fetch('/auth/csrf')).json()) as { csrfToken: string };
      const foreign = await b.fetch('/auth/callback/credentials', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', origin: 'https://evil.example' },
        body: JSON.stringify({ csrfToken, email: 'x@example.com', password }),
      });
      expect(foreign.status).toBe(403);
      expect(await foreign.json()).toMatchObject({ error: { code: 'CSRF_ORIGIN_MISMATCH' } });
    });

    it('refuses an auth request body over the size limit with 413', async () => {
      const b = tab();
      const res = await b.fetch('/auth/callback/credentials', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ csrfToken: 'x', password: 'p'.repeat(200_000) }),
      });
      expect(res.status).toBe(413);
    });

    it('never answers a malformed Host or an absolute-form target with a 5xx or a stack, and keeps serving', async () => {
      const agent = singleConnectionAgent();
      try {
        for (const host of ['[', 'a b', 'example.com:99999']) {
          for (const target of ['/auth/session', '/', '/auth/signup']) {
            const res = await rawRequest(app.baseUrl, agent, { target, headers: { host, accept: 'application/json' } });
            // 400, or an ordinary answer from a server that takes its origin from configuration
            // (adapter-node's ORIGIN) and ignores Host.
            expect(res.status, `GET ${target} with Host: ${host}`).toBeLessThan(500);
            if (res.status >= 300 && res.status < 400) expect(String(res.headers.location ?? '')).not.toContain(host);
            expect(looksLikeStack(res.body), res.body).toBe(false);
          }
        }
        for (const target of ['http://evil.example/auth/callback/credentials', 'http://evil.example/auth/signup']) {
          const body = JSON.stringify({ csrfToken: 'x', email: 'a@example.com', password });
          const res = await rawRequest(app.baseUrl, agent, {
            method: 'POST',
            target,
            headers: {
              'content-type': 'application/json',
              accept: 'application/json',
              'content-length': String(Buffer.byteLength(body)),
            },
            chunks: [body],
          });
          expect(res.status, `POST ${target}`).toBeGreaterThanOrEqual(400);
          expect(res.status, `POST ${target}`).toBeLessThan(500);
          expect(looksLikeStack(res.body), res.body).toBe(false);
        }
      } finally {
        agent.destroy();
      }
      expect((await tab().fetch('/auth/csrf')).status).toBe(200);
    });

    it('answers 413 to chunked bodies over the limit and keeps the connection usable', async () => {
      const piece = 'a'.repeat(16 * 1024);
      for (const path of ['/auth/callback/credentials', '/auth/signup']) {
        const agent = singleConnectionAgent();
        try {
          const refused = await rawRequest(app.baseUrl, agent, {
            method: 'POST',
            target: path,
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              origin: app.baseUrl,
              accept: 'application/json',
            },
            chunks: ['password=', ...Array.from({ length: 24 }, () => piece)],
          });
          expect(refused.status, `POST ${path}`).toBe(413);
          expect(looksLikeStack(refused.body), refused.body).toBe(false);
          const next = await rawRequest(app.baseUrl, agent, {
            target: '/auth/csrf',
            headers: { accept: 'application/json' },
          });
          expect(next.status).toBe(200);
          expect(next.reusedSocket, `the connection after the 413 on ${path}`).toBe(true);
        } finally {
          agent.destroy();
        }
      }
      expect((await tab().fetch('/auth/providers')).status).toBe(200);
    });

    it("sends security headers on the kit's pages and on the app's own pages", async () => {
      const b = tab();
      for (const path of ['/auth/signin', '/auth/signup', '/auth/csrf']) {
        const res = await b.fetch(path);
        expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
        expect(res.headers.get('referrer-policy'), path).toBeTruthy();
        expect(res.headers.get('cache-control'), path).toContain('no-store');
      }
      for (const path of ['/', '/protected', options.api?.path].filter((p): p is string => !!p)) {
        const res = await b.fetch(path);
        expect(res.headers.get('cache-control'), path).toContain('no-store');
        expect(res.headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
        expect(res.headers.get('referrer-policy'), path).toBeTruthy();
        expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      }
    });

    it('signs up through /auth/signup, refuses a taken email, and refuses a sign-up without CSRF token', async () => {
      const email = newEmail();
      const res = await register(email);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/');
      expect((await register(email.toUpperCase(), 'Mallory')).status).toBe(409);
      const res403 = await tab().form('/auth/signup', { email: newEmail(), password });
      expect(res403.status).toBe(403);
    });

    it('redirects the protected page to the sign-in page when signed out', async () => {
      const res = await tab().fetch('/protected');
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fprotected');
    });

    it('signs in through the HTML form: redirect, session cookie, pages', async () => {
      const email = newEmail();
      await register(email, 'Grace');
      const b = tab();
      const page = await b.fetch('/auth/signin?callbackUrl=%2F');
      const res = await b.form('/auth/callback/credentials', {
        csrfToken: csrfFrom(await page.text()),
        callbackUrl: '/',
        email,
        password,
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/');
      const cookie = res.headers.getSetCookie().find((line) => line.startsWith(`${SESSION_COOKIE}=`)) ?? '';
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Path=\//);
      expect(await (await b.fetch('/')).text()).toContain(`<strong id="user-email">${email}</strong>`);
      const protectedPage = await b.fetch('/protected');
      expect(protectedPage.status).toBe(200);
      expect(await protectedPage.text()).toContain('Hello, Grace');
    });

    it('signs in with JSON, reads the session, and reports wrong passwords', async () => {
      const email = newEmail();
      await register(email, 'Ada');
      const b = tab();
      const { csrfToken } = (await (await b.fetch('/auth/csrf')).json()) as { csrfToken: string };
      const wrong = await b.json('/auth/callback/credentials', { csrfToken, email, password: 'wrong-password' });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toMatchObject({ error: { code: 'INVALID_CREDENTIALS' } });
      const ok = await b.json('/auth/callback/credentials', { csrfToken, email, password, callbackUrl: '/protected' });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ ok: true, url: '/protected' });
      const session = (await (await b.fetch('/auth/session', JSON_ACCEPT)).json()) as {
        user: { email: string; name: string };
        expires: string;
      };
      expect(session.user).toMatchObject({ email, name: 'Ada' });
      expect(Date.parse(session.expires)).toBeGreaterThan(Date.now());
    });

    it('sends a browser with a wrong password back to the sign-in page', async () => {
      const email = newEmail();
      await register(email);
      const b = tab();
      const page = await b.fetch('/auth/signin');
      const res = await b.form('/auth/callback/credentials', {
        csrfToken: csrfFrom(await page.text()),
        email,
        password: 'wrong-password',
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toContain('/auth/signin?error=CredentialsSignin');
    });

    it('signs out: cookie cleared, session gone, protected page redirects again', async () => {
      const email = newEmail();
      await register(email);
      const b = await signedIn(email);
      expect(await b.cookie(SESSION_COOKIE)).toBeTruthy();
      const page = await b.fetch('/auth/signout');
      const res = await b.form('/auth/signout', { csrfToken: csrfFrom(await page.text()) });
      expect(res.status).toBe(303);
      expect(
        res.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=;`) || /Max-Age=0/i.test(line)),
      ).toBe(true);
      expect(await b.cookie(SESSION_COOKIE)).toBeUndefined();
      expect(await (await b.fetch('/auth/session', JSON_ACCEPT)).json()).toBeNull();
      expect((await b.fetch('/protected')).status).toBe(302);
    });

    it('clears a forged session cookie', async () => {
      const b = tab();
      await b.jar.setCookie(`${SESSION_COOKIE}=forged.value; Path=/`, app.baseUrl);
      const res = await b.fetch('/auth/session', JSON_ACCEPT);
      expect(await res.json()).toBeNull();
      expect(res.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))).toBe(true);
      expect(await b.cookie(SESSION_COOKIE)).toBeUndefined();
    });

    it('answers API clients (no text/html in Accept) with JSON errors, never an HTML page', async () => {
      const email = newEmail();
      await register(email);
      const person = await signedIn(email);
      for (const accept of ['*/*', 'application/xml']) {
        const expectJsonError = async (res: Response, status: number, code: string | RegExp) => {
          expect(res.status).toBe(status);
          expect(res.headers.get('content-type')).toContain('application/json');
          expect(await res.json()).toMatchObject({
            error: { code: typeof code === 'string' ? code : expect.stringMatching(code) },
          });
        };
        await expectJsonError(await tab().fetch('/auth/no-such-route', { headers: { accept } }), 404, 'NOT_FOUND');
        const forged = await tab().fetch('/auth/signout', {
          method: 'POST',
          headers: { accept, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'csrfToken=forged',
        });
        await expectJsonError(forged, 403, /^CSRF_/);
        if (options.api)
          await expectJsonError(await tab().fetch(options.api.path, { headers: { accept } }), 401, 'UNAUTHENTICATED');
        if (options.admin && !options.admin.forbiddenPage)
          await expectJsonError(await person.fetch(options.admin.path, { headers: { accept } }), 403, 'FORBIDDEN');
      }
    });

    if (options.api) {
      const { path } = options.api;
      it(`answers 401 JSON on ${path} when signed out, the user when signed in`, async () => {
        const out = await tab().fetch(path, JSON_ACCEPT);
        expect(out.status).toBe(401);
        expect(await out.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
        const email = newEmail();
        await register(email);
        const b = await signedIn(email);
        const res = await b.fetch(path, JSON_ACCEPT);
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ email });
      });
    }

    if (options.api) {
      const { path } = options.api;
      it(`answers ${path} for an API key as its owner, sets no cookie, ignores the key on auth routes, and stops after revocation`, async () => {
        const email = newEmail();
        await register(email);
        const owner = await signedIn(email);
        const { csrfToken } = (await (await owner.fetch('/auth/csrf')).json()) as { csrfToken: string };
        const created = await owner.json('/auth/api-keys', { csrfToken, name: 'conformance' });
        expect(created.status).toBe(201);
        const { key, id } = (await created.json()) as { key: string; id: string };
        const robot = tab();
        const headers: Record<string, string>[] = [{ authorization: `Bearer ${key}` }, { 'x-api-key': key }];
        for (const header of headers) {
          const res = await robot.fetch(path, { headers: { ...header, accept: 'application/json' } });
          expect(res.status).toBe(200);
          expect(await res.json()).toMatchObject({ email });
          expect(res.headers.getSetCookie().some((line) => line.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
        }
        const bearer = { authorization: `Bearer ${key}`, accept: 'application/json' };
        expect(await (await robot.fetch('/auth/session', { headers: bearer })).json()).toBeNull();
        expect((await robot.fetch('/auth/api-keys', { headers: bearer })).status).toBe(401);
        expect((await owner.json('/auth/api-keys/revoke', { csrfToken, id })).status).toBe(200);
        expect((await robot.fetch(path, { headers: bearer })).status).toBe(401);
      });
    }

    if (options.admin) {
      const admin = options.admin;
      it(`lets only the admin role see ${admin.path} (403 for others)`, async () => {
        expect((await tab().fetch(admin.path)).status).toBe(302);
        const email = newEmail();
        await register(email);
        const person = await signedIn(email);
        const denied = await person.fetch(admin.path, JSON_ACCEPT);
        expect(denied.status).toBe(403);
        if (admin.forbiddenPage) expect(denied.headers.get('content-type')).toContain('text/html');
        else expect(await denied.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
        const boss = await signedIn(admin.email, admin.password);
        expect((await boss.fetch(admin.path)).status).toBe(200);
      });
    }

    if (options.webhook) {
      const hook = options.webhook;
      it(`delivers a signed webhook on ${hook.path} and refuses bad signatures`, async () => {
        const body = JSON.stringify({ event: 'ping', id: counter++ });
        const post = (headers: Record<string, string>) =>
          fetch(new URL(hook.path, app.baseUrl), {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body,
          });
        const ok = await post(hook.sign(body));
        expect(ok.status).toBe(200);
        expect(await ok.json()).toMatchObject({ ok: true });
        const forged = hook.sign(`${body} `);
        expect((await post(forged)).status).toBe(401);
        expect((await fetch(new URL(hook.path, app.baseUrl))).status).toBe(405);
      });
    }

    if (options.rateLimit) {
      const { attempts } = options.rateLimit;
      it(`answers 429 after ${attempts} failed sign-ins`, async () => {
        const b = tab();
        const { csrfToken } = (await (await b.fetch('/auth/csrf')).json()) as { csrfToken: string };
        const email = newEmail();
        for (let i = 0; i < attempts; i++) {
          expect(
            (await b.json('/auth/callback/credentials', { csrfToken, email, password: 'wrong-password' })).status,
          ).toBe(401);
        }
        expect(
          (await b.json('/auth/callback/credentials', { csrfToken, email, password: 'wrong-password' })).status,
        ).toBe(429);
      });
    }
  });
}
