/**
 * `@framework/auth-client/plugins/multi-session` against the real engine behind a real HTTP server (127.0.0.1,
 * port 0), with a browser-like cookie jar: two accounts signed in, listed, switched (the session store follows),
 * one signed out, and another browser's session id refused.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordAccounts, type Auth } from '@framework/auth';
import { multiSession } from '@framework/auth/plugins/multi-session';
import { authRequest, createAuthClient } from '../src/index.js';
import * as multi from '../src/plugins/multi-session.js';
import { send, toRequest } from './bindings/server.js';
import { engine } from './engine-fetch.js';

const SECRET = 'client-multi-session-test-secret-0123456789';
const PASSWORD = 'analytical-engine';
let server: Server;
let base: string;
let auth: Auth;
let adapter: Awaited<ReturnType<typeof engine>>['adapter'];

beforeAll(async () => {
  let handle: (request: Request, ip: string) => Promise<Response> = async () => new Response(null, { status: 503 });
  server = createServer((req, res) => {
    void toRequest(req, base)
      .then((request) => handle(request, req.socket.remoteAddress!))
      .then((response) => send(res, response));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ({ auth, adapter } = await engine({ secret: SECRET, baseURL: base, plugins: [multiSession()] }));
  await passwordAccounts(adapter).register({ email: 'grace@example.com', password: PASSWORD, name: 'Grace' });
  handle = (request, ip) => auth.handler(request, { ip });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A browser: its own cookie jar, the page's Origin, every request over HTTP to the server. */
function browser() {
  const jar = new Map<string, string>();
  const fetcher: typeof fetch = async (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('origin', base);
    if (jar.size) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(new URL(String(input), base), { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (pair.slice(eq + 1) === '' || /max-age=0/i.test(line)) jar.delete(pair.slice(0, eq));
      else jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return response;
  };
  const client = createAuthClient<typeof auth>({ fetch: fetcher });
  const signInAs = async (email: string) =>
    expect(
      await authRequest('/callback/credentials', { fetch: fetcher }, { email, password: PASSWORD }, true),
    ).toMatchObject({
      ok: true,
    });
  return { fetch: fetcher, jar, client, actions: client.actions(multi), signInAs };
}

/** Resolves with the store's first state that `accept`s. */
function stateWhere<S>(store: { subscribe(l: (s: S) => void): () => void }, accept: (s: S) => boolean) {
  return new Promise<S>((resolve) => {
    const stop = store.subscribe((s) => {
      if (accept(s)) {
        queueMicrotask(() => stop());
        resolve(s);
      }
    });
  });
}

describe('multi-session client over HTTP', () => {
  it('lists both accounts, switches (the store follows), and signs one out', async () => {
    const b = browser();
    await b.signInAs('ada@example.com');
    await b.signInAs('grace@example.com');
    const listed = await b.actions.listDeviceSessions();
    expect(listed.ok).toBe(true);
    expect(listed.data!.sessions.map((s) => [s.user.email, s.active])).toStrictEqual([
      ['grace@example.com', true],
      ['ada@example.com', false],
    ]);
    const ada = listed.data!.sessions[1]!;

    const store = b.client.createAuthStore();
    const keep = store.subscribe(() => {});
    await stateWhere(store, (s) => s.user?.email === 'grace@example.com');
    const switched = await b.actions.setActiveSession(ada.sessionId);
    expect(switched).toMatchObject({ ok: true, data: { session: { sessionId: ada.sessionId, active: true } } });
    // The store was refreshed before the call resolved.
    expect(store.getState().user?.email).toBe('ada@example.com');

    const grace = (await b.actions.listDeviceSessions()).data!.sessions.find((s) => !s.active)!;
    expect(await b.actions.revokeDeviceSession(grace.sessionId)).toMatchObject({
      ok: true,
      data: { active: ada.sessionId },
    });
    expect((await b.actions.listDeviceSessions()).data!.sessions.map((s) => s.user.email)).toStrictEqual([
      'ada@example.com',
    ]);
    expect(await adapter.listSessions(grace.user.id)).toHaveLength(0);
    keep();
  });

  it("refuses another browser's session id with DEVICE_SESSION_NOT_FOUND", async () => {
    const victim = browser();
    await victim.signInAs('grace@example.com');
    const [theirs] = (await victim.actions.listDeviceSessions()).data!.sessions;
    const attacker = browser();
    await attacker.signInAs('ada@example.com');
    expect(await attacker.actions.setActiveSession(theirs!.sessionId)).toMatchObject({
      ok: false,
      status: 404,
      error: 'DEVICE_SESSION_NOT_FOUND',
    });
    expect(await attacker.actions.revokeDeviceSession(theirs!.sessionId)).toMatchObject({
      ok: false,
      status: 404,
      error: 'DEVICE_SESSION_NOT_FOUND',
    });
    expect((await victim.client.getSession())?.user.email).toBe('grace@example.com');
  });
});
