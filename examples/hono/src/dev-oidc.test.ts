/**
 * Real-server test of the "Dev OIDC" sign-in: the example app and the local
 * OpenID provider on loopback ports, driven over HTTP with a cookie jar.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_OIDC_PERSON, startDevOidc } from './dev-oidc.js';
import { browser, csrfFrom, form, start, stop } from './test-server.js';

describe('example app: sign in with Dev OIDC', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'framework-oidc-'));
  const oidc = await startDevOidc();
  const running = await start({ dbPath: join(dir, 'app.db'), devOidcIssuer: oidc.issuer });
  afterAll(async () => {
    await stop(running);
    await oidc.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('goes through the authorization code flow and comes back signed in', async () => {
    const b = browser();
    const page = await (await b.fetch(`${running.base}/auth/signin`)).text();
    expect(page).toContain('Sign in with Dev OIDC');
    const toProvider = await b.fetch(
      `${running.base}/auth/signin/dev-oidc`,
      form({ csrfToken: csrfFrom(page), callbackUrl: '/' }),
    );
    expect(toProvider.status).toBe(303);
    const authorizeUrl = toProvider.headers.get('location')!;
    expect(authorizeUrl.startsWith(`${oidc.issuer}/authorize?`)).toBe(true);
    const back = await b.fetch(authorizeUrl);
    expect(back.status).toBe(302);
    const callback = back.headers.get('location')!;
    expect(callback.startsWith(`${running.base}/auth/callback/dev-oidc?`)).toBe(true);
    const done = await b.fetch(callback);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/');
    const home = await (await b.fetch(`${running.base}/`)).text();
    expect(home).toContain(DEV_OIDC_PERSON.email);
    const account = await running.example.adapter.getAccount({
      provider: 'dev-oidc',
      providerAccountId: DEV_OIDC_PERSON.sub,
    });
    expect(account?.type).toBe('oidc');
  });
});
