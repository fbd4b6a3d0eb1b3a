import { describe, expect, it } from 'vitest';
import { makeFixture, ORIGIN } from '../testing/fixtures.js';

const json = { accept: 'application/json' };

describe('auth routes', async () => {
  const { auth, client } = await makeFixture('database');

  it('GET /providers lists providers with their URLs', async () => {
    const res = await auth.handler(new Request(`${ORIGIN}/auth/providers`));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      credentials: {
        id: 'credentials',
        name: 'Credentials',
        type: 'credentials',
        signinUrl: `${ORIGIN}/auth/signin/credentials`,
        callbackUrl: `${ORIGIN}/auth/callback/credentials`,
      },
    });
  });

  it('GET /csrf issues a token and an httpOnly cookie, and reuses a valid cookie', async () => {
    const c = client();
    const res = await c.request('/auth/csrf');
    const { csrfToken } = (await res.json()) as { csrfToken: string };
    expect(csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^framework\.csrf-token=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(await c.csrf()).toBe(csrfToken);
  });

  it('GET /session answers null without a session', async () => {
    const res = await auth.handler(new Request(`${ORIGIN}/auth/session`, { headers: json }));
    expect(res.status).toBe(200);
    expect(await res.json()).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('GET /signin renders the form with the CSRF token, fields and a safe callbackUrl', async () => {
    const res = await auth.handler(new Request(`${ORIGIN}/auth/signin?callbackUrl=%2Fdash&error=CredentialsSignin`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    expect(html).toContain('action="/auth/callback/credentials"');
    expect(html).toMatch(/name="csrfToken" value="[A-Za-z0-9_-]{43}"/);
    expect(html).toContain('name="callbackUrl" value="/dash"');
    expect(html).toContain('<label for="credentials-email">Email</label>');
    expect(html).toContain('Sign in failed');
  });

  it('GET /signin drops a foreign callbackUrl', async () => {
    const html = await (
      await auth.handler(new Request(`${ORIGIN}/auth/signin?callbackUrl=https%3A%2F%2Fevil.test%2F`))
    ).text();
    expect(html).toContain('name="callbackUrl" value="/"');
    expect(html).not.toContain('evil.test');
  });

  it('GET /signout renders a confirmation form', async () => {
    const html = await (await auth.handler(new Request(`${ORIGIN}/auth/signout`))).text();
    expect(html).toContain('action="/auth/signout"');
    expect(html).toContain('name="csrfToken"');
  });

  it('GET /error shows a friendly message, never raw text', async () => {
    const html = await (
      await auth.handler(new Request(`${ORIGIN}/auth/error?error=%3Cscript%3Ealert(1)%3C%2Fscript%3E`))
    ).text();
    expect(html).toContain('Something went wrong');
    expect(html).not.toContain('<script>');
    const access = await (await auth.handler(new Request(`${ORIGIN}/auth/error?error=AccessDenied`))).text();
    expect(access).toContain('You do not have permission to sign in.');
  });

  it('GET /verify-request renders the check-your-email page', async () => {
    const res = await auth.handler(new Request(`${ORIGIN}/auth/verify-request`));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Check your email');
  });

  it('HEAD is answered like GET without a body', async () => {
    const res = await auth.handler(new Request(`${ORIGIN}/auth/providers`, { method: 'HEAD' }));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('auth route errors', async () => {
  const { auth, client } = await makeFixture('jwt');

  it('unknown routes answer 404 NOT_FOUND', async () => {
    for (const path of ['/auth/nope', '/auth/signin/a/b', '/elsewhere', '/auth']) {
      const res = await auth.handler(new Request(`${ORIGIN}${path}`, { headers: json }));
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    }
  });

  it('a wrong method answers 405 with Allow', async () => {
    const res = await auth.handler(new Request(`${ORIGIN}/auth/providers`, { method: 'DELETE', headers: json }));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('METHOD_NOT_ALLOWED');
    const get = await auth.handler(new Request(`${ORIGIN}/auth/callback/credentials`, { headers: json }));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });

  it('an unknown provider answers 404 PROVIDER_NOT_FOUND', async () => {
    const res = await client().postJson('/auth/signin/github', {});
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'PROVIDER_NOT_FOUND', message: 'Unknown provider "github"' } });
  });

  it('bad JSON answers 400 INVALID_REQUEST', async () => {
    const c = client();
    await c.csrf();
    const res = await c.request('/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': await c.csrf() },
      body: '{"email":',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
  });

  it('a JSON array or nested object is refused with 400', async () => {
    const c = client();
    const token = await c.csrf();
    for (const body of ['[1,2]', `{"csrfToken":"${token}","email":{"$ne":1}}`]) {
      const res = await c.request('/auth/callback/credentials', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': token },
        body,
      });
      expect(res.status, body).toBe(400);
    }
  });

  it('missing required fields answer 400 naming them', async () => {
    const res = await client().postJson('/auth/callback/credentials', { email: 'a@b.c' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { code: 'INVALID_REQUEST', message: 'Missing required field(s): password' },
    });
  });

  it('an oversized body answers 413 PAYLOAD_TOO_LARGE, declared or streamed', async () => {
    const c = client();
    const big = 'x'.repeat(70 * 1024);
    const declared = await c.postJson('/auth/callback/credentials', { email: big, password: 'p' });
    expect(declared.status).toBe(413);
    const token = await c.csrf();
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`csrfToken=${token}&email=`));
        for (let i = 0; i < 100; i++) controller.enqueue(new TextEncoder().encode(big.slice(0, 1024)));
        controller.close();
      },
    });
    const streamed = await c.request('/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('an unsupported content type answers 415', async () => {
    const c = client();
    const res = await c.request('/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', accept: 'application/json', 'x-csrf-token': await c.csrf() },
      body: 'hello',
    });
    expect(res.status).toBe(415);
  });

  it('a POST without a CSRF token answers 403 CSRF_TOKEN_INVALID', async () => {
    const res = await auth.handler(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ email: 'a@b.c', password: 'x' }),
      }),
    );
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('CSRF_TOKEN_INVALID');
  });

  it('a token that does not match the cookie, or a forged cookie, is refused', async () => {
    const c = client();
    await c.csrf();
    const wrong = await c.request('/auth/signout', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ csrfToken: 'A'.repeat(43) }),
    });
    expect(wrong.status).toBe(403);
    const forged = await auth.handler(
      new Request(`${ORIGIN}/auth/signout`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          cookie: `framework.csrf-token=${'A'.repeat(43)}.forged`,
        },
        body: JSON.stringify({ csrfToken: 'A'.repeat(43) }),
      }),
    );
    expect(forged.status).toBe(403);
  });

  it('a cross-site POST is refused with 403 CSRF_ORIGIN_MISMATCH even with a valid token', async () => {
    for (const headers of [{ origin: 'https://evil.test' }, { 'sec-fetch-site': 'cross-site' }] as Record<
      string,
      string
    >[]) {
      const res = await client().postJson('/auth/callback/credentials', { email: 'a@b.c', password: 'x' }, headers);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('CSRF_ORIGIN_MISMATCH');
    }
  });

  it('a CSRF failure from a browser form renders the error page with 403', async () => {
    const res = await auth.handler(
      new Request(`${ORIGIN}/auth/signout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
        body: 'csrfToken=nope',
      }),
    );
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Your form expired');
  });

  it('a same-origin or trusted-origin POST passes the origin check', async () => {
    const same = await client().postJson('/auth/signout', {}, { origin: ORIGIN, 'sec-fetch-site': 'same-origin' });
    expect(same.status).toBe(200);
    const { auth: trusting, client: c2 } = await makeFixture('jwt', { trustedOrigins: ['https://admin.app.test/'] });
    expect(trusting).toBeDefined();
    const trusted = await c2().postJson(
      '/auth/signout',
      {},
      { origin: 'https://admin.app.test', 'sec-fetch-site': 'same-site' },
    );
    expect(trusted.status).toBe(200);
  });
});
