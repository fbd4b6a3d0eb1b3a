/**
 * Real-server test of two-factor sign-in in the example (enabled by a secret), through the kit's no-JS pages:
 * enrol from the settings page, then a sign-in that stops at the code page. The enrolment's code comes from the
 * page's key (`otpauth`), the sign-in's from the stored key (`currentTotp`).
 */
import * as OTPAuth from 'otpauth';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { currentTotp } from '@framework/testing';
import { browser, csrfFrom, form, start, stop } from './test-server.js';

describe('example app: two-factor over HTTP', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'framework-2fa-'));
  const running = await start({ dbPath: join(dir, 'app.db'), secret: 'example-two-factor-secret-0123456789abcdef' });
  afterAll(async () => {
    await stop(running);
    await rm(dir, { recursive: true, force: true });
  });
  const email = 'katherine@example.com';
  const password = 'johnson-1918';
  let totp: OTPAuth.TOTP;

  it('enrols from the settings page with the password and a first code', async () => {
    const b = browser();
    const signup = await b.fetch(`${running.base}/auth/signup`);
    await b.fetch(`${running.base}/auth/signup`, form({ csrfToken: csrfFrom(await signup.text()), email, password }));
    // Enrolment needs a verified email (the verification mail's link sets it).
    const user = (await running.example.adapter.getUserByEmail(email))!;
    await running.example.adapter.updateUser(user.id, { emailVerified: new Date() });
    const settings = await b.fetch(`${running.base}/auth/two-factor`);
    expect(settings.status).toBe(200);
    const enabled = await b.fetch(
      `${running.base}/auth/two-factor/enable`,
      form({ csrfToken: csrfFrom(await settings.text()), password }),
    );
    const page = await enabled.text();
    expect(page).toContain('<svg');
    const secret = /id="tf-secret">([A-Z2-7]+)</.exec(page)![1]!;
    totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), issuer: 'Framework example' });
    const confirmed = await b.fetch(
      `${running.base}/auth/two-factor/confirm`,
      form({ csrfToken: csrfFrom(page), code: totp.generate() }),
    );
    expect(await confirmed.text()).toContain('Two-factor authentication is on.');
  });

  it('stops the next sign-in at the code page, and the code completes it', async () => {
    const b = browser();
    const signin = await b.fetch(`${running.base}/auth/signin`);
    const first = await b.fetch(
      `${running.base}/auth/callback/credentials`,
      form({ csrfToken: csrfFrom(await signin.text()), email, password, callbackUrl: '/' }),
    );
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/auth/two-factor/verify');
    expect(await (await b.fetch(`${running.base}/`)).text()).not.toContain(email);
    const prompt = await b.fetch(`${running.base}/auth/two-factor/verify`);
    // The enrolment spent the current step's code; the next step's is within the allowed skew.
    const at = Date.now() + 30_000;
    const done = await b.fetch(
      `${running.base}/auth/two-factor/verify`,
      // The code from the key the plugin stored (not the page's), as the user's authenticator app shows it.
      form({ csrfToken: csrfFrom(await prompt.text()), code: await currentTotp(running.example.auth, email, { at }) }),
    );
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/');
    expect(await (await b.fetch(`${running.base}/`)).text()).toContain(`<strong id="user-email">${email}</strong>`);
  });
});
