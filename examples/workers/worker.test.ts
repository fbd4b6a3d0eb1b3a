/**
 * Starts the example Worker in Miniflare on a free port and drives it over
 * HTTP: register, credentials sign-in with the session in D1, the session
 * page, sign-out, and the signed webhook.
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

beforeAll(async () => {
  served = await serveWorker({ port: 0, webhookSecret: WEBHOOK_SECRET });
});
afterAll(() => served?.dispose());

describe('example-workers on workerd', () => {
  it('registers, signs in with credentials (session in D1), reads the session and signs out', async () => {
    const registered = await postJson('/register', { email: 'ada@example.com', password: 'analytical-engine', name: 'Ada' }, false);
    expect(registered.status).toBe(201);

    const wrong = await postJson('/auth/callback/credentials', { email: 'ada@example.com', password: 'wrong-password' });
    expect(wrong.status).toBe(401);

    const signedIn = await postJson('/auth/callback/credentials', { email: 'ada@example.com', password: 'analytical-engine' });
    expect(signedIn.status).toBe(200);
    expect(cookies.has('framework.session-token')).toBe(true);

    const home = (await (await call('/')).json()) as { user: { email: string } | null; runtime: string };
    expect(home).toMatchObject({ user: { email: 'ada@example.com' }, runtime: 'Cloudflare-Workers' });

    expect((await postJson('/auth/signout', {})).status).toBeLessThan(400);
    expect(((await (await call('/')).json()) as { user: unknown }).user).toBeNull();
  });

  it('runs the signed webhook and refuses a bad signature', async () => {
    const body = JSON.stringify({ event: 'ping', n: 1 });
    const signature = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
    const post = (sig: string) => call('/webhooks/demo', { method: 'POST', headers: { 'content-type': 'application/json', 'x-signature': sig }, body });

    const ok = await post(signature);
    expect(ok.status).toBe(200);
    const { traceId } = (await ok.json()) as { traceId: string };
    expect((await post('sha256=00')).status).toBe(401);

    expect(await (await call('/webhooks-received')).json()).toStrictEqual([{ traceId, payload: { event: 'ping', n: 1 } }]);
  });
});
