/**
 * Real-server test: the example's sign-in page offers a code by SMS (`phoneNumber()`); in development the text
 * lands in the dev outbox addressed to the number, signs the person in once, and is refused a second time.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browser, csrfFrom, form, start, stop } from './test-server.js';

describe('sign-in with a code by SMS in the example', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'framework-example-phone-'));
  const running = await start({ dbPath: join(dir, 'app.db') });
  afterAll(async () => {
    await stop(running);
    await rm(dir, { recursive: true, force: true });
  });
  const number = '+442079460018';

  /** The newest code the outbox holds for `to`. */
  const lastCode = async (to: string) => {
    const texts = (await running.example.mailer.list()).filter((m) => m.to === to);
    return /\b(\d{6})\b/.exec(texts.at(-1)?.text ?? '')?.[1];
  };

  it('texts a code from the sign-in page to the outbox and signs a new person in with it, once', async () => {
    const b = browser();
    const signin = await (await b.fetch(`${running.base}/auth/signin`)).text();
    expect(signin).toContain('Text me a sign-in code');
    const sent = await b.fetch(
      `${running.base}/auth/phone-number/send-otp`,
      form({ csrfToken: csrfFrom(signin), purpose: 'sign-in', phoneNumber: '+44 20 7946 0018', callbackUrl: '/' }),
    );
    expect(sent.status).toBe(303);
    const page = await (await b.fetch(new URL(sent.headers.get('location')!, running.base).href)).text();
    expect(page).toContain('Enter your code');
    const code = await lastCode(number);
    expect(code).toMatch(/^\d{6}$/);

    const signedIn = await b.fetch(
      `${running.base}/auth/phone-number/sign-in`,
      form({ csrfToken: csrfFrom(page), phoneNumber: number, code: code!, callbackUrl: '/' }),
    );
    expect(signedIn.status).toBe(303);
    const session = await (
      await b.fetch(`${running.base}/auth/session`, { headers: { accept: 'application/json' } })
    ).json();
    expect(session).toMatchObject({ user: { email: null } });

    const other = browser();
    const otherPage = await (
      await other.fetch(`${running.base}/auth/phone-number/sign-in?phoneNumber=${encodeURIComponent(number)}`)
    ).text();
    const replay = await other.fetch(`${running.base}/auth/phone-number/sign-in`, {
      ...form({ csrfToken: csrfFrom(otherPage), phoneNumber: number, code: code! }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    });
    expect(replay.status).toBe(401);
    expect(JSON.stringify(await replay.json())).toContain('OTP_INVALID');
  });
});
