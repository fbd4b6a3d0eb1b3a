/**
 * Starts the example Worker in Miniflare on a free port and drives it over
 * HTTP: the kit's built-in sign-up (`/auth/signup`), credentials sign-in with
 * the session in D1, the session page, sign-out, and the signed webhook; and
 * the attacks on sign-up (cross-site or token-less, malformed and oversized
 * bodies, floods) and the removed routes (`/register`, the debug route).
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveWorker, type ServedWorker } from './src/serve.js';

const WEBHOOK_SECRET = 'test-webhook-secret';
let served: ServedWorker;
const cookies = new Map<string, string>();

/** fetch against the Worker, keeping cookies like a browser. */
async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (cookies.size > 0) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
  const res = await fetch(new URL(path, served.url), { ...init, headers, redirect: 'manual' });
  for (const line of res.headers.getSetCookie()) {
    const [pair = ''] = line.split(';');
    const eq = pair.indexOf('=');
    const value = pair.slice(eq + 1);
    if (value === '' || /max-age=0/i.test(line)) cookies.delete(pair.slice(0, eq));
    else cookies.set(pair.slice(0, eq), value);
  }
  return res;
}

async function postJson(path: string, body: Record<string, unknown>, withCsrf = true): Promise<Response> {
  const csrf = withCsrf ? ((await (await call('/auth/csrf')).json()) as { csrfToken: string }).csrfToken : undefined;
  return call(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ ...(csrf ? { csrfToken: csrf } : {}), ...body }),
  });
}

const REGISTER_LIMIT = 8;

beforeAll(async () => {
  served = await serveWorker({ port: 0, webhookSecret: WEBHOOK_SECRET, registerRateLimit: REGISTER_LIMIT });
});
afterAll(() => served?.dispose());

describe('example-workers on workerd', () => {
  it('signs up on the built-in /auth/signup, signs in with credentials (session in D1) and signs out', async () => {
    const page = await call('/auth/signup', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Create an account');
    const registered = await postJson('/auth/signup', {
      email: 'ada@example.com',
      password: 'analytical-engine',
      name: 'Ada',
    });
    expect(registered.status).toBe(200);
    // Sign-up signs in: the new account's session is in D1.
    expect(((await (await call('/')).json()) as { user: { email: string } | null }).user?.email).toBe(
      'ada@example.com',
    );
    expect((await postJson('/auth/signout', {})).status).toBeLessThan(400);
    expect((await postJson('/auth/signup', { email: 'ada@example.com', password: 'another-password' })).status).toBe(
      409,
    );
    expect((await postJson('/register', { email: 'bob@example.com', password: 'analytical-engine' })).status).toBe(404);

    const wrong = await postJson('/auth/callback/credentials', {
      email: 'ada@example.com',
      password: 'wrong-password',
    });
    expect(wrong.status).toBe(401);

    const signedIn = await postJson('/auth/callback/credentials', {
      email: 'ada@example.com',
      password: 'analytical-engine',
    });
    expect(signedIn.status).toBe(200);
    expect(cookies.has('__Host-framework.session-token')).toBe(true);
    const sessionCookie = signedIn.headers
      .getSetCookie()
      .find((line) => line.startsWith('__Host-framework.session-token='));
    expect(sessionCookie).toMatch(/;\s*Secure/i);

    const home = (await (await call('/')).json()) as { user: { email: string } | null; runtime: string };
    expect(home).toMatchObject({ user: { email: 'ada@example.com' }, runtime: 'Cloudflare-Workers' });

    expect((await postJson('/auth/signout', {})).status).toBeLessThan(400);
    expect(((await (await call('/')).json()) as { user: unknown }).user).toBeNull();
  });

  it('runs the signed webhook once: a bad signature, a replayed delivery and a stale timestamp are refused', async () => {
    const body = JSON.stringify({ event: 'ping', n: 1 });
    const sign = (id: string, timestamp = Math.floor(Date.now() / 1000)) => ({
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': `v1,${createHmac('sha256', WEBHOOK_SECRET).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
    });
    const post = (headers: Record<string, string>) =>
      call('/webhooks/demo', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

    const headers = sign('msg_1');
    const ok = await post(headers);
    expect(ok.status).toBe(200);
    const { traceId } = (await ok.json()) as { traceId: string };
    // The same delivery again (a replay): answered, not run again.
    const replay = await post(headers);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ duplicate: true });
    expect((await post({ ...headers, 'webhook-signature': 'v1,AAAA' })).status).toBe(401);
    expect((await post(sign('msg_2', Math.floor(Date.now() / 1000) - 301))).status).toBe(401);
    // The old body-only scheme is refused.
    const legacy = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
    expect((await post({ 'x-signature': legacy })).status).toBe(401);

    expect(await served.webhookEvents()).toStrictEqual([{ traceId, payload: { event: 'ping', n: 1 } }]);
    expect((await call('/webhooks-received')).status).toBe(404);
  });

  it('refuses sign-ups without a CSRF token, cross-site text/plain, malformed JSON and oversized bodies, without a stack', async () => {
    const account = { email: 'mallory@example.com', password: 'correct-horse-battery' };
    const noToken = await postJson('/auth/signup', account, false);
    expect(noToken.status).toBe(403);
    expect(await noToken.json()).toMatchObject({ error: { code: expect.stringMatching(/^CSRF_/) } });

    const crossSite = await fetch(new URL('/auth/signup', served.url), {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
      body: JSON.stringify(account),
    });
    expect([403, 415]).toContain(crossSite.status);

    const malformed = await call('/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"email":',
    });
    expect(malformed.status).toBe(400);
    const text = await malformed.text();
    expect(text).not.toMatch(/\bat .+:\d+:\d+|SyntaxError/);

    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 40; i++) controller.enqueue(new TextEncoder().encode(`"${'x'.repeat(1024)}",`));
        controller.close();
      },
    });
    const big = await call('/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: chunks,
      duplex: 'half',
    } as RequestInit).catch((error: unknown) => error);
    if (big instanceof Response) expect(big.status).toBe(413);
    else {
      // The kit answers 413 before the body has all arrived and lets the rest go; workerd may then close the
      // connection while the client still sends, and the client sees the reset instead of the answer.
      const cause = (big as { cause?: { code?: string; message?: string } }).cause;
      expect(`${cause?.code} ${cause?.message}`).toMatch(/ECONNRESET|EPIPE|UND_ERR_SOCKET|other side closed/);
    }
    // Either way the Worker serves the next request.
    expect((await call('/auth/csrf')).status).toBe(200);
  });

  it('answers 429 once one address has signed up too often', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < REGISTER_LIMIT + 1; i++) {
      const res = await postJson('/auth/signup', {
        email: `flood-${i}@example.com`,
        password: 'correct-horse-battery',
      });
      statuses.push(res.status);
      if (res.status === 429) break;
    }
    expect(statuses.at(-1)).toBe(429);
  });

  it('sends the page security headers on its own routes', async () => {
    const home = await call('/');
    expect(home.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(home.headers.get('cache-control')).toBe('no-store');
    expect(home.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
