/**
 * `oidcProvider()`'s pages in the person's language: the consent page (the scopes' descriptions too, the client's
 * name as registered) and "Apps with access", with `<html lang>`, `Content-Language` and `Vary: Accept-Language`
 * (in-process, through `auth.handler`).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ORIGIN, makeFixture } from '../../testing/fixtures.js';
import { jwt } from '../jwt/index.js';
import { oidcProvider } from './index.js';

const REDIRECT = 'https://rp.example/callback';
const CHALLENGE = createHash('sha256').update('x'.repeat(43)).digest('base64url');
const CLIENT_NAME = 'Relying Party';

async function signedIn() {
  const f = await makeFixture('database', {
    baseURL: ORIGIN,
    rateLimit: { login: false },
    plugins: [
      jwt({ audience: 'https://api.example' }),
      oidcProvider({
        clients: [
          {
            clientId: 'rp',
            clientSecret: 'rp-secret-rp-secret-rp-secret-0123456789',
            name: CLIENT_NAME,
            redirectUris: [REDIRECT],
          },
        ],
      }),
    ],
  });
  await f.adapter.updateUser(f.userId, { emailVerified: new Date() });
  const c = f.client();
  expect((await c.signIn()).status).toBe(200);
  return c;
}

const authorizeUrl = () =>
  `/auth/oauth2/authorize?${new URLSearchParams({
    client_id: 'rp',
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'openid profile email offline_access',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
  }).toString()}`;

const expectInLanguage = async (res: Response, lang: string) => {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-language')).toBe(lang);
  expect(res.headers.get('vary')?.toLowerCase()).toContain('accept-language');
  const html = await res.text();
  expect(html).toContain(`<html lang="${lang}">`);
  return html;
};

const CASES = [
  {
    lang: 'de',
    header: 'de-CH,de;q=0.9,en;q=0.5',
    consent: [
      `Darf ${CLIENT_NAME} auf Ihr Konto zugreifen?`,
      `${CLIENT_NAME} kann dann:`,
      'Wissen, wer Sie sind (Ihre Konto-ID)',
      'Ihren Namen und Ihr Bild sehen',
      'Ihre E-Mail-Adresse sehen',
      'Auch in Ihrer Abwesenheit Zugriff behalten',
      '>Zulassen</button>',
      '>Ablehnen</button>',
    ],
    apps: ['<h1>Apps mit Zugriff</h1>', `<strong>${CLIENT_NAME}</strong>`, '(seit ', '>Zugriff entziehen</button>'],
    none: 'Keine Anwendung hat Zugriff auf Ihr Konto.',
  },
  {
    lang: 'ja',
    header: 'ja-JP,ja;q=0.9',
    consent: [
      `${CLIENT_NAME} にアカウントへのアクセスを許可しますか？`,
      'あなたが誰かを知る（アカウント ID）',
      '名前と写真を見る',
      'メールアドレスを見る',
      'あなたが利用していない間もアクセスを維持する',
      '>許可</button>',
      '>拒否</button>',
    ],
    apps: ['<h1>アクセスできるアプリ</h1>', `<strong>${CLIENT_NAME}</strong>`, '>アクセスを取り消す</button>'],
    none: 'あなたのアカウントにアクセスできるアプリケーションはありません。',
  },
];

describe("oidcProvider() pages in the person's language", () => {
  it.each(CASES)('consent and "Apps with access" in $lang', async ({ lang, header, consent, apps, none }) => {
    const c = await signedIn();
    const html = { accept: 'text/html', 'accept-language': header };

    const empty = await expectInLanguage(await c.request('/auth/oauth2/consents', { headers: html }), lang);
    expect(empty).toContain(none);

    const page = await expectInLanguage(await c.request(authorizeUrl(), { headers: html }), lang);
    for (const text of consent) expect(page).toContain(text);
    expect(page).not.toContain('See your email address');
    expect(page).not.toContain('>Allow</button>');

    const request = /name="request" value="([^"]+)"/.exec(page)![1]!;
    const allowed = await c.postForm('/auth/oauth2/consent', { request, decision: 'allow' }, { origin: ORIGIN });
    expect(allowed.status).toBe(303);
    expect(allowed.headers.get('location')).toMatch(/^https:\/\/rp\.example\/callback\?code=/);

    const list = await expectInLanguage(await c.request('/auth/oauth2/consents', { headers: html }), lang);
    for (const text of apps) expect(list).toContain(text);
    expect(list).toContain('openid, profile, email, offline_access');
    expect(list).not.toContain('Revoke');
  });

  it.each([
    { lang: 'de', header: 'de', confirm: ['<h1>Abmelden?</h1>', '>Abmelden</button>'], done: 'Sie sind abgemeldet.' },
    { lang: 'ja', header: 'ja', confirm: ['>サインアウト</button>'], done: 'サインアウトしました。' },
  ])('end-session and its signed-out page in $lang', async ({ lang, header, confirm, done }) => {
    const c = await signedIn();
    const html = { accept: 'text/html', 'accept-language': header };
    const page = await expectInLanguage(
      await c.request('/auth/oauth2/end-session?client_id=rp', { headers: html }),
      lang,
    );
    for (const text of confirm) expect(page).toContain(text);
    expect(page).toContain(CLIENT_NAME);
    expect(page).not.toContain('>Sign out</button>');
    const action = /action="([^"]+)"/.exec(page)![1]!.replaceAll('&amp;', '&');
    const next = new URL(action, ORIGIN).searchParams.get('callbackUrl')!;
    const after = await expectInLanguage(await c.request(next, { headers: html }), lang);
    expect(after).toContain(done);
    expect(after).not.toContain('You are signed out.');
  });

  it('stays English without Accept-Language', async () => {
    const c = await signedIn();
    const page = await expectInLanguage(await c.request(authorizeUrl(), { headers: { accept: 'text/html' } }), 'en');
    expect(page).toContain(`Allow ${CLIENT_NAME} to access your account?`);
    expect(page).toContain('See your email address');
  });
});
