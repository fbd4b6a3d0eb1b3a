/**
 * Real-server test: with a secret and a baseURL (as `npm start` runs it), the example is an OpenID Provider: its
 * discovery names the issuer, and the demo client's authorization request sends a signed-out browser to sign in and,
 * once signed in and allowed, back to the CLI's address with a code.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browser, csrfFrom, form, start, stop } from './test-server.js';

describe('the example as an OpenID Provider', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'framework-example-oidc-'));
  const running = await start({ dbPath: join(dir, 'app.db'), likeNpmStart: true });
  afterAll(async () => {
    await stop(running);
    await rm(dir, { recursive: true, force: true });
  });

  it('publishes discovery and runs the demo client’s authorization', async () => {
    const discovery = (await (await fetch(`${running.base}/auth/.well-known/openid-configuration`)).json()) as Record<
      string,
      unknown
    >;
    expect(discovery.issuer).toBe(`${running.origin}/auth`);
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);

    const query = new URLSearchParams({
      client_id: 'example-cli',
      redirect_uri: 'http://127.0.0.1:8765/callback',
      response_type: 'code',
      scope: 'openid email',
      code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
      code_challenge_method: 'S256',
      state: 's1',
    });
    const authorize = `${running.base}/auth/oauth2/authorize?${query.toString()}`;
    const b = browser();
    const away = await b.fetch(authorize);
    expect(away.status).toBe(303);
    expect(away.headers.get('location')).toMatch(/^\/auth\/signin\?callbackUrl=/);

    const email = 'grace@example.com';
    const signup = await (await b.fetch(`${running.base}/auth/signup`)).text();
    const created = await b.fetch(
      `${running.base}/auth/signup`,
      form({ csrfToken: csrfFrom(signup), email, password: 'a long enough password', callbackUrl: '/' }),
    );
    expect(created.status).toBe(303);
    const consent = await b.fetch(authorize, { headers: { accept: 'text/html' } });
    expect(consent.status).toBe(200);
    const page = await consent.text();
    expect(page).toContain('Example CLI (demo)');
    const request = /name="request" value="([^"]+)"/.exec(page)![1]!;
    const allowed = await b.fetch(
      `${running.base}/auth/oauth2/consent`,
      form({ csrfToken: csrfFrom(page), request: request.replace(/&amp;/g, '&'), decision: 'allow' }),
    );
    expect(allowed.status).toBe(303);
    const back = new URL(allowed.headers.get('location')!);
    expect(back.origin + back.pathname).toBe('http://127.0.0.1:8765/callback');
    expect(back.searchParams.get('state')).toBe('s1');
    expect(back.searchParams.get('code')).toBeTruthy();
  });
});
