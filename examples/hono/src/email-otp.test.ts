/**
 * Real-server test: the example's sign-in page offers a code by email (`emailOTP()`); the code reaches the dev
 * outbox, signs the person in once, and is refused a second time.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { browser, csrfFrom, form, start, stop } from './test-server.js';

describe('sign-in with a code by email in the example', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'framework-example-otp-'));
  const running = await start({ dbPath: join(dir, 'app.db') });
  afterAll(async () => {
    await stop(running);
    await rm(dir, { recursive: true, force: true });
  });
  const email = 'katherine@example.com';

  /** The newest code the outbox holds for `to`. */
  const lastCode = async (to: string) => {
    const mails = (await running.example.mailer.list()).filter((m) => m.to === to && /code/i.test(m.subject));
    return /\b(\d{6})\b/.exec(mails.at(-1)?.text ?? '')?.[1];
  };

  it('sends a code from the sign-in page and signs a new person in with it, once', async () => {
    const b = browser();
    const signin = await (await b.fetch(`${running.base}/auth/signin`)).text();
    expect(signin).toContain('Email me a sign-in code');
    const sent = await b.fetch(
      `${running.base}/auth/email-otp/send`,
      form({ csrfToken: csrfFrom(signin), type: 'sign-in', email, callbackUrl: '/' }),
    );
    expect(sent.status).toBe(303);
    const codePage = await b.fetch(new URL(sent.headers.get('location')!, running.base).href);
    const page = await codePage.text();
    expect(page).toContain('Enter your code');
    const code = await lastCode(email);
    expect(code).toMatch(/^\d{6}$/);

    const signedIn = await b.fetch(
      `${running.base}/auth/email-otp/sign-in`,
      form({ csrfToken: csrfFrom(page), email, code: code!, callbackUrl: '/' }),
    );
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/');
    expect(await (await b.fetch(`${running.base}/`)).text()).toContain(`<strong id="user-email">${email}</strong>`);

    // The same code in another browser: used up.
    const other = browser();
    const otherPage = await (await other.fetch(`${running.base}/auth/email-otp/sign-in?email=${email}`)).text();
    const replay = await other.fetch(`${running.base}/auth/email-otp/sign-in`, {
      ...form({ csrfToken: csrfFrom(otherPage), email, code: code! }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    });
    expect(replay.status).toBe(401);
    expect(JSON.stringify(await replay.json())).toContain('OTP_INVALID');
  });

  it('keeps a pending code in the example database, hashed: the plain code is not stored', async () => {
    const b = browser();
    const signin = await (await b.fetch(`${running.base}/auth/signin`)).text();
    const sent = await b.fetch(`${running.base}/auth/email-otp/send`, form({ csrfToken: csrfFrom(signin), email }));
    expect(sent.status).toBe(303);
    const code = await lastCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const db = new Database(join(dir, 'app.db'), { readonly: true });
    try {
      const tables = db.prepare("select name from sqlite_master where type = 'table' and name like '%otp%'").all() as {
        name: string;
      }[];
      expect(tables.length).toBeGreaterThan(0);
      const stored = JSON.stringify(tables.map((t) => db.prepare(`select * from "${t.name}"`).all()));
      expect(stored).toMatch(/"expires_at"|"expiresAt"/);
      expect(stored).not.toContain(code!);
    } finally {
      db.close();
    }
  });
});
