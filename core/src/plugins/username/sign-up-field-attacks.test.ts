/**
 * Attacks on the plugin sign-up-field extension point (`AuthPlugin.signUpFields`) through `username()`'s field:
 * names that shadow what sign-up reads, huge and invisible values, repeated form keys, JSON that is not a string,
 * markup echoed on the re-shown page, and the order of checks (a taken name stores nothing and sends no email).
 */
import { describe, expect, it } from 'vitest';
import { createAuth, type CreateAuthOptions } from '../../auth.js';
import type { AuthPlugin } from '../../plugin-kit.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { ORIGIN, SECRET, TestClient } from '../../testing/fixtures.js';
import { PASSWORD, usernameAuth } from './fixture.test-helpers.js';

const setup = (overrides: Omit<Partial<CreateAuthOptions>, 'plugins'> = {}) => usernameAuth(undefined, {}, overrides);

const errorCode = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;
const usernameOf = async (c: TestClient) =>
  (
    (await (await c.request('/auth/username', { headers: { accept: 'application/json' } })).json()) as {
      username?: string;
    } | null
  )?.username;

/** A raw form post of the sign-up page (CSRF token from the jar), `body` as given. */
async function formPost(c: TestClient, body: string, accept = 'application/json') {
  const csrfToken = await c.csrf();
  return c.request('/auth/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept, origin: ORIGIN },
    body: `csrfToken=${encodeURIComponent(csrfToken)}&${body}`,
  });
}

describe('sign-up field attacks', () => {
  it('refuses at createAuth a plugin field shadowing what sign-up reads, in any case', () => {
    for (const name of ['email', 'Email', 'PASSWORD', 'name', 'callbackUrl', 'callbackURL', 'csrfToken', 'CSRFTOKEN']) {
      const plugin: AuthPlugin = {
        id: 'shadow',
        signUpFields: [{ name, label: 'Shadow', check: () => undefined }],
      } as unknown as AuthPlugin;
      expect(() =>
        createAuth({
          secret: SECRET,
          baseURL: ORIGIN,
          adapter: createMemoryAdapter(),
          providers: [],
          emailAndPassword: {},
          plugins: [plugin],
        }),
      ).toThrow(/sign-up field/);
    }
  });

  it('a huge, invisible or non-string username stores nothing', async () => {
    const f = await setup();
    const attempts: [Record<string, unknown>, string][] = [
      [{ username: 'a'.repeat(10_000) }, 'USERNAME_INVALID'],
      [{ username: 'ada\u200b' }, 'USERNAME_INVALID'],
      [{ username: '\u202eada' }, 'USERNAME_INVALID'],
      [{ username: ['ada'] }, 'INVALID_REQUEST'],
      [{ username: { toString: 'ada' } }, 'INVALID_REQUEST'],
    ];
    for (const [i, [extra, code]] of attempts.entries()) {
      const email = `x${i}@example.com`;
      const res = await f.client().postJson('/auth/signup', { email, password: PASSWORD, ...extra });
      expect(res.status, JSON.stringify(extra).slice(0, 40)).toBe(400);
      expect(await errorCode(res)).toBe(code);
      expect(await f.adapter.getUserByEmail(email)).toBeNull();
    }
    // A JSON number is read as its text: what is checked is what is stored.
    const c = f.client();
    expect(
      (await c.postJson('/auth/signup', { email: 'n@example.com', password: PASSWORD, username: 1234 })).status,
    ).toBe(200);
    expect(await usernameOf(c)).toBe('1234');
  });

  it('a repeated form key: the first value is checked and the same value stored', async () => {
    const f = await setup();
    const c = f.client();
    const res = await formPost(
      c,
      `email=ada%40example.com&password=${encodeURIComponent(PASSWORD)}&username=ada&username=root`,
    );
    expect(res.status).toBeLessThan(400);
    expect(await usernameOf(c)).toBe('ada');
    // The second value was never checked, so it was never held either.
    const other = f.client();
    expect(
      (await other.postJson('/auth/signup', { email: 'r@example.com', password: PASSWORD, username: 'root' })).status,
    ).toBe(200);
    expect(await usernameOf(other)).toBe('root');
  });

  it('the re-shown page escapes what was typed and never shows the password', async () => {
    const f = await setup();
    await f.client().postJson('/auth/signup', { email: 'taken@example.com', password: PASSWORD, username: 'taken' });
    const markup = '"><script>alert(1)</script>';
    const secret = 'Sup3r-secret-passw0rd!';
    for (const typed of <Record<string, string>[]>[
      { username: `x${markup}`, name: 'Ada', email: 'ada@example.com' },
      { username: 'taken', name: `Ada${markup}`, email: 'ada2@example.com' },
      { username: 'taken', name: 'Ada', email: 'ada3@example.com', callbackUrl: `/welcome${markup}` },
    ]) {
      const body = new URLSearchParams({ ...typed, password: secret }).toString();
      const res = await formPost(f.client(), body, 'text/html');
      const html = await res.text();
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(html).toContain('<form');
      expect(html).not.toContain('<script>alert(1)</script>');
      expect(html).not.toContain('"><script>');
      // Typed fields come back escaped; a callbackUrl comes back only as resolved (a same-site path, or /).
      if (!('callbackUrl' in typed)) expect(html).toContain('&lt;script&gt;');
      expect(html).not.toContain(secret);
    }
  });

  it('a taken username creates no user and sends no verification email', async () => {
    const sent: string[] = [];
    const f = await setup({
      emailAndPassword: {
        requireEmailVerification: true,
        sendVerificationEmail: ({ user }) => void sent.push(user.email!),
      },
    });
    expect(
      (await f.client().postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD, username: 'ada' }))
        .status,
    ).toBe(200);
    expect(sent).toStrictEqual(['ada@example.com']);
    const res = await f
      .client()
      .postJson('/auth/signup', { email: 'bob@example.com', password: PASSWORD, username: 'ADA' });
    expect(res.status).toBe(409);
    expect(await errorCode(res)).toBe('USERNAME_TAKEN');
    expect(await f.adapter.getUserByEmail('bob@example.com')).toBeNull();
    expect(sent).toStrictEqual(['ada@example.com']);
  });
});
