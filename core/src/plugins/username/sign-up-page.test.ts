/**
 * `username()` on the default no-JS sign-up page, browser-free: a cookie jar GETs the page, fills its form as a person
 * does (the hidden CSRF token included) and POSTs it as a form; a refused name shows the form again with the error
 * and what was typed (never the password); then the username form of the sign-in page signs in. On memory, SQLite
 * and PostgreSQL.
 */
import { describe, expect, it } from 'vitest';
import { ORIGIN, type TestClient } from '../../testing/fixtures.js';
import { PASSWORD, onEveryAdapter, usernameAuth, type Open } from './fixture.test-helpers.js';

const unescape = (value: string) =>
  value.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) =>
    e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
  );

/** A page's POST form to `action`: its inputs by name, with the values the page gives them. */
function formOf(html: string, action: string): Record<string, string> {
  const forms = [...html.matchAll(/<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/g)];
  const form = forms.find((f) => unescape(f[1]!) === action);
  if (!form) throw new Error(`no form posting to ${action}`);
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input ([^>]*)>/g)) {
    const attr = (name: string) => new RegExp(`(?:^| )${name}="([^"]*)"`).exec(input[1]!)?.[1];
    const name = attr('name');
    if (name !== undefined) fields[unescape(name)] = unescape(attr('value') ?? '');
  }
  return fields;
}

/** Submits the page's form with `typed` filled in, as a browser without JavaScript does. */
function submit(c: TestClient, action: string, html: string, typed: Record<string, string>): Promise<Response> {
  return c.request(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: ORIGIN },
    body: new URLSearchParams({ ...formOf(html, action), ...typed }).toString(),
  });
}

const pageOf = async (c: TestClient, path: string) =>
  (await c.request(path, { headers: { accept: 'text/html' } })).text();

const setup = (open: Open) => usernameAuth(open, {}, { user: { additionalFields: { company: { type: 'string' } } } });

function flow(label: string, open: Open) {
  describe(`username() on the sign-up page (${label})`, () => {
    it('signs up with a username on the no-JS page, then signs in with it on the sign-in page', async () => {
      const f = await setup(open);
      try {
        const ada = f.client();
        const page = await pageOf(ada, '/auth/signup?callbackUrl=/welcome');
        expect(page).toMatch(/<input id="signup-field-username" name="username" type="text" autocomplete="username"/);
        expect(formOf(page, '/auth/signup').csrfToken).not.toBe('');
        const made = await submit(ada, '/auth/signup', page, {
          name: 'Ada',
          email: 'ada@example.com',
          password: PASSWORD,
          username: ' Ada_L ',
          company: 'Engines',
        });
        expect(made.status).toBe(303);
        expect(made.headers.get('location')).toBe('/welcome');
        expect((await ada.session())?.user.email).toBe('ada@example.com');
        const mine = await ada.request('/auth/username', { headers: { accept: 'application/json' } });
        expect(await mine.json()).toStrictEqual({ username: 'ada_l', displayUsername: 'Ada_L' });

        // A browser that never signed in: the sign-in page's username form, with its own CSRF token.
        const back = f.client();
        const signInPage = await pageOf(back, '/auth/signin?callbackUrl=/home');
        const wrong = await submit(back, '/auth/username/sign-in', signInPage, {
          username: 'ada_l',
          password: 'not the password',
        });
        expect(wrong.status).toBe(303);
        expect(wrong.headers.get('location')).toContain('error=CredentialsSignin');
        expect(await back.session()).toBeNull();
        const signedIn = await submit(back, '/auth/username/sign-in', signInPage, {
          username: 'ADA_L',
          password: PASSWORD,
        });
        expect(signedIn.status).toBe(303);
        expect(signedIn.headers.get('location')).toBe('/home');
        expect((await back.session())?.user.email).toBe('ada@example.com');
      } finally {
        await f.close();
      }
    });

    it('a taken or malformed name shows the form again with the error and what was typed, never the password', async () => {
      const f = await setup(open);
      try {
        const first = f.client();
        const firstPage = await pageOf(first, '/auth/signup');
        const typed = { email: 'ada@example.com', password: PASSWORD, username: 'ada' };
        expect((await submit(first, '/auth/signup', firstPage, typed)).status).toBe(303);

        const grace = f.client();
        const page = await pageOf(grace, '/auth/signup');
        const secret = 'a very secret passphrase';
        const taken = await submit(grace, '/auth/signup', page, {
          name: 'Grace <Hopper>',
          email: 'grace@example.com',
          password: secret,
          username: 'ＡＤＡ',
          company: 'Navy & co',
        });
        expect(taken.status).toBe(409);
        const again = await taken.text();
        expect(again).toContain('role="alert">That username is taken');
        const kept = formOf(again, '/auth/signup');
        expect(kept).toMatchObject({
          name: 'Grace <Hopper>',
          email: 'grace@example.com',
          username: 'ＡＤＡ',
          company: 'Navy & co',
          password: '',
        });
        expect(again).not.toContain(secret);
        expect(await f.adapter.getUserByEmail('grace@example.com')).toBeNull();

        // A look-alike (Cyrillic а): refused as the JSON route refuses it.
        const lookAlike = await submit(grace, '/auth/signup', again, { password: secret, username: '\u0430da' });
        expect(lookAlike.status).toBe(400);
        expect(await lookAlike.text()).toContain('role="alert">');
        const json = await f.client().postJson('/auth/signup', {
          email: 'x@example.com',
          password: PASSWORD,
          username: '\u0430da',
        });
        expect(((await json.json()) as { error: { code: string } }).error.code).toBe('USERNAME_INVALID');

        // The re-shown form, with another name, goes through.
        const made = await submit(grace, '/auth/signup', again, { password: secret, username: 'grace' });
        expect(made.status).toBe(303);
        const user = await f.adapter.getUserByEmail('grace@example.com');
        expect(user).toMatchObject({ name: 'Grace <Hopper>', company: 'Navy & co' });
        const other = f.client();
        const signedIn = await submit(other, '/auth/username/sign-in', await pageOf(other, '/auth/signin'), {
          username: 'grace',
          password: secret,
        });
        expect(signedIn.status).toBe(303);
        expect((await other.session())?.user.email).toBe('grace@example.com');
      } finally {
        await f.close();
      }
    });

    it('refuses a form POST without the page CSRF token, and stores nothing', async () => {
      const f = await setup(open);
      try {
        const c = f.client();
        const page = await pageOf(c, '/auth/signup');
        const typed = { email: 'eve@example.com', password: PASSWORD, username: 'eve' };
        const forged = await submit(c, '/auth/signup', page, { ...typed, csrfToken: 'forged' });
        expect(forged.status).toBe(403);
        const crossSite = await c.request('/auth/signup', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.test' },
          body: new URLSearchParams({ ...formOf(page, '/auth/signup'), ...typed }).toString(),
        });
        expect(crossSite.status).toBe(403);
        expect(await f.adapter.getUserByEmail('eve@example.com')).toBeNull();
        expect(await (await f.auth.api.isUsernameAvailable({ username: 'eve' })).available).toBe(true);
      } finally {
        await f.close();
      }
    });
  });
}

await onEveryAdapter('username_page', flow);
