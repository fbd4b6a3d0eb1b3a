/**
 * The default pages in the request's language, end to end through `auth.handler`: `Accept-Language` with weights and
 * region fallback, the `locale` option (forcing, restricting, overriding, adding a language), `<html lang>`,
 * `Content-Language` and `Vary`, plugin pages and forms, and error codes that never change with the language.
 */
import { describe, expect, it } from 'vitest';
import { AuthConfigError } from '../errors.js';
import { ORIGIN, makeFixture } from '../testing/fixtures.js';
import type { CreateAuthOptions } from '../auth.js';
import { emailOTP } from '../plugins/email-otp/plugin.js';
import { phoneNumber } from '../plugins/phone-number/plugin.js';

async function setup(overrides: Partial<CreateAuthOptions> = {}) {
  const { auth } = await makeFixture('database', {
    plugins: [emailOTP({ sendVerificationOTP: () => {} }), phoneNumber({ sendOTP: () => {} })],
    ...overrides,
  });
  const page = async (path: string, language?: string, accept = 'text/html') => {
    const headers: Record<string, string> = { accept };
    if (language !== undefined) headers['accept-language'] = language;
    const res = await auth.handler(new Request(`${ORIGIN}${path}`, { headers }));
    return { res, html: await res.text() };
  };
  return { auth, page };
}

describe('the sign-in page', async () => {
  const { page } = await setup();

  it('is German for Accept-Language: de, with the plugin forms on it', async () => {
    const { res, html } = await page('/auth/signin', 'de');
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<h1>Anmelden</h1>');
    expect(html).toContain('Anmeldecode per E-Mail senden');
    expect(html).toContain('Anmeldecode per SMS senden');
    expect(html).toContain('<label for="eo-email-sign-in">E-Mail</label>');
    expect(html).not.toContain('Sign in');
    expect(res.headers.get('content-language')).toBe('de');
    expect(res.headers.get('vary')).toMatch(/Accept-Language/i);
  });

  it('is Japanese for ja-JP (region falls back to the language)', async () => {
    const { res, html } = await page('/auth/signin', 'ja-JP');
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain('<h1>サインイン</h1>');
    expect(html).toContain('サインインコードをメールで受け取る');
    expect(res.headers.get('content-language')).toBe('ja');
  });

  it('honours q-values over header order', async () => {
    const { html } = await page('/auth/signin', 'de;q=0.3, fr;q=0.9, es;q=0.5');
    expect(html).toContain('<html lang="fr">');
    expect(html).toContain('<h1>Se connecter</h1>');
  });

  it('is English for an unknown language, a garbage header and no header', async () => {
    for (const language of ['it-IT, pt;q=0.8', `;;;q=2,,,${'1-'.repeat(5000)}`, undefined]) {
      const { res, html } = await page('/auth/signin', language);
      expect(html, String(language)).toContain('<html lang="en">');
      expect(html, String(language)).toContain('<h1>Sign in</h1>');
      expect(html, String(language)).toContain('Email me a sign-in code');
      expect(res.headers.get('content-language')).toBe('en');
    }
  });

  it('shows the error of ?error= in the language', async () => {
    const { html } = await page('/auth/signin?error=CredentialsSignin', 'es');
    expect(html).toContain('No se pudo iniciar sesión.');
  });
});

describe('the error page and the other core pages', async () => {
  const { page } = await setup();

  it('translates the error page and the not-found page', async () => {
    expect((await page('/auth/error?error=AccessDenied', 'de')).html).toContain(
      '<h1>Problem bei der Anmeldung</h1><p class="error" role="alert">Sie haben keine Berechtigung, sich anzumelden.</p>',
    );
    const missing = await page('/auth/nope', 'fr');
    expect(missing.res.status).toBe(404);
    expect(missing.html).toContain('<h1>Page introuvable</h1>');
  });

  it('translates the sign-out and verify-request pages', async () => {
    expect((await page('/auth/signout', 'ja')).html).toContain('サインアウトしてもよろしいですか？');
    expect((await page('/auth/verify-request', 'es')).html).toContain('<h1>Revisa tu correo</h1>');
  });

  it('keeps JSON error codes the same in every language', async () => {
    const codes = new Set<string>();
    for (const language of ['en', 'de', 'fr', 'es', 'ja']) {
      const { res, html } = await page('/auth/nope', language, 'application/json');
      expect(res.status).toBe(404);
      codes.add((JSON.parse(html) as { error: { code: string } }).error.code);
    }
    expect([...codes]).toStrictEqual(['NOT_FOUND']);
  });
});

describe('the code pages of emailOTP() and phoneNumber()', async () => {
  const { auth, page } = await setup();

  it('translate their titles, labels and buttons', async () => {
    const otp = await page('/auth/email-otp/sign-in?email=ada%40example.com', 'de');
    expect(otp.html).toContain('<h1>Code eingeben</h1>');
    expect(otp.html).toContain('Wir haben einen Code an ada@example.com gesendet.');
    expect(otp.html).toContain('<label for="eo-code">Code aus der E-Mail</label>');
    const phone = await page('/auth/phone-number/sign-in', 'fr');
    expect(phone.html).toContain('<h1>Se connecter avec votre téléphone</h1>');
    expect(phone.html).toContain('Numéro de téléphone');
  });

  it('show a refused code in the language, while JSON keeps the code', async () => {
    const form = await page('/auth/email-otp/sign-in?email=ada%40example.com', 'de');
    const csrf = /name="csrfToken" value="([^"]+)"/.exec(form.html)![1]!;
    const cookie = form.res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const post = (accept: string) =>
      auth.handler(
        new Request(`${ORIGIN}/auth/email-otp/sign-in`, {
          method: 'POST',
          headers: {
            accept,
            'accept-language': 'de',
            'content-type': 'application/x-www-form-urlencoded',
            origin: ORIGIN,
            cookie,
          },
          body: new URLSearchParams({ csrfToken: csrf, email: 'ada@example.com', code: '000000' }),
        }),
      );
    const html = await (await post('text/html')).text();
    expect(html).toContain('Der Code ist falsch oder abgelaufen');
    const json = (await (await post('application/json')).json()) as { error: { code: string } };
    expect(json.error.code).toBe('OTP_INVALID');
  });
});

describe('the locale option', () => {
  it('forces a language with detect, whatever the header says', async () => {
    const { page } = await setup({ locale: { detect: () => 'ja' } });
    const { res, html } = await page('/auth/signin', 'de');
    expect(html).toContain('<h1>サインイン</h1>');
    expect(res.headers.get('content-language')).toBe('ja');
  });

  it('negotiates from the header when detect answers nothing, or throws', async () => {
    const none = await setup({ locale: { detect: () => undefined } });
    expect((await none.page('/auth/signin', 'es')).html).toContain('<h1>Iniciar sesión</h1>');
    const failing = await setup({
      locale: {
        detect: () => {
          throw new Error('no cookie store');
        },
      },
    });
    const { res, html } = await failing.page('/auth/signin', 'fr');
    expect(res.status).toBe(200);
    expect(html).toContain('<h1>Se connecter</h1>');
  });

  it('restricts the languages to supported, with default for the rest', async () => {
    const { page } = await setup({ locale: { supported: ['en', 'fr'], default: 'fr' } });
    expect((await page('/auth/signin', 'de')).html).toContain('<h1>Se connecter</h1>');
    expect((await page('/auth/signin', 'en-US')).html).toContain('<h1>Sign in</h1>');
  });

  it('overrides a string, and adds a language with English for what it leaves out', async () => {
    const { page } = await setup({
      locale: {
        messages: {
          de: { 'signIn.title': 'Willkommen zurück' },
          it: { 'signIn.title': 'Accedi', 'emailOtp.signInFormButton': 'Inviami un codice via email' },
        },
      },
    });
    expect((await page('/auth/signin', 'de')).html).toContain('<h1>Willkommen zurück</h1>');
    const italian = await page('/auth/signin', 'it-IT');
    expect(italian.html).toContain('<html lang="it">');
    expect(italian.html).toContain('<h1>Accedi</h1>');
    expect(italian.html).toContain('Inviami un codice via email');
    expect(italian.html).toContain('Text me a sign-in code');
    expect(italian.res.headers.get('content-language')).toBe('it');
  });

  it('refuses a default outside supported, or a tag that is not one', async () => {
    await expect(setup({ locale: { supported: ['en'], default: 'de' } })).rejects.toThrow(AuthConfigError);
    await expect(setup({ locale: { supported: ['en', 'not a tag'] } })).rejects.toThrow(AuthConfigError);
  });
});

describe('the sign-in forms of username(), passkey() and anonymous()', async () => {
  const { username } = await import('../plugins/username/plugin.js');
  const { anonymous } = await import('../plugins/anonymous/plugin.js');
  const { passkey } = await import('../plugins/passkey/provider.js');
  const { page } = await setup({
    plugins: [username(), anonymous()],
    providers: [passkey({ rpName: 'Test', rpId: 'app.test', origin: ORIGIN })],
  });

  it('speak the page language', async () => {
    const de = (await page('/auth/signin', 'de')).html;
    expect(de).toContain('<label for="un-username">Benutzername</label>');
    expect(de).toContain('Mit Benutzername anmelden');
    expect(de).toContain('Mit einem Passkey anmelden');
    expect(de).toContain('Als Gast fortfahren');
    const es = (await page('/auth/signin', 'es')).html;
    expect(es).toContain('Iniciar sesión con una llave de acceso');
    expect(es).toContain('Continuar como invitado');
  });

  it("give the passkey ceremony's status line the page language", async () => {
    const de = (await page('/auth/signin', 'de')).html;
    expect(de).toContain('"waiting":"Warten auf Ihren Passkey …"');
    expect(de).toContain('"failed":"Der Passkey konnte nicht verwendet werden. Bitte versuchen Sie es erneut."');
    expect(de).not.toContain('Waiting for your passkey');
    const en = (await page('/auth/signin', 'en')).html;
    expect(en).toContain('"waiting":"Waiting for your passkey…"');
  });
});

describe('the email and password pages', async () => {
  const { page } = await setup({
    providers: [],
    emailAndPassword: { sendVerificationEmail: () => {}, sendResetPassword: () => {} },
  });

  it('translate the sign-up page, with the links on the sign-in page', async () => {
    const { res, html } = await page('/auth/signup', 'de');
    expect(html).toContain('<h1>Konto erstellen</h1>');
    expect(html).toContain('<label for="signup-email">E-Mail</label>');
    expect(html).toContain('<label for="signup-password">Passwort</label>');
    expect(html).toContain('Sie haben schon ein Konto? Anmelden');
    expect(res.headers.get('content-language')).toBe('de');
  });

  it('translate the forgot-password page and the reset link page', async () => {
    expect((await page('/auth/password/forgot', 'fr')).html).toContain('<h1>Mot de passe oublié ?</h1>');
    expect((await page('/auth/password/reset?token=abc.def', 'ja')).html).toContain('<h1>新しいパスワードを設定</h1>');
  });

  it('translate the verify link page and the sign-in-to-confirm page (the address in bold, escaped)', async () => {
    expect((await page('/auth/verify-email?token=abc.def', 'es')).html).toContain('Confirma tu dirección de correo');
    const confirm = await page('/auth/verify-email?token=abc.def&email=%3Cb%3E%40example.com', 'de');
    expect(confirm.html).toContain(
      'Melden Sie sich bei dem Konto an, dessen E-Mail-Adresse <strong>&lt;b&gt;@example.com</strong> werden soll',
    );
  });
});

describe('a refused sign-up', async () => {
  const { auth } = await setup({ providers: [], emailAndPassword: {} });

  it('shows the code message in the page language, and the JSON code is unchanged', async () => {
    const form = await auth.handler(new Request(`${ORIGIN}/auth/signup`, { headers: { accept: 'text/html' } }));
    const csrf = /name="csrfToken" value="([^"]+)"/.exec(await form.text())![1]!;
    const cookie = form.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const signUp = (accept: string) =>
      auth.handler(
        new Request(`${ORIGIN}/auth/signup`, {
          method: 'POST',
          headers: {
            accept,
            'accept-language': 'fr',
            'content-type': 'application/x-www-form-urlencoded',
            origin: ORIGIN,
            cookie,
          },
          body: new URLSearchParams({ csrfToken: csrf, email: 'ada@example.com', password: 'a-long-password-1' }),
        }),
      );
    const page = await signUp('text/html');
    expect(page.status).toBe(409);
    expect(await page.text()).toContain('Un compte existe déjà avec cette adresse e-mail');
    const json = (await (await signUp('application/json')).json()) as { error: { code: string } };
    expect(json.error.code).toBe('EMAIL_TAKEN');
  });
});

describe("admin()'s users page", () => {
  it('renders in the locale it is given, the banned reason kept as typed', async () => {
    const { adminPage } = await import('../plugins/admin/pages.js');
    const html = adminPage({
      basePath: '/auth',
      csrfToken: 't',
      selfId: 'me',
      users: [
        { id: 'u1', email: 'ada@example.com', name: 'Ada', role: 'user', banned: { reason: 'spam', expiresAt: null } },
      ],
      search: '',
      next: null,
      locale: { lang: 'ja', overrides: {} },
    } as Parameters<typeof adminPage>[0]);
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain('<h1>ユーザー</h1>');
    expect(html).toContain('停止中: spam');
    expect(html).toContain('停止を解除');
  });
});

describe("organizations()'s invitation page", () => {
  it('puts the links and the role in the sentence of the language, values escaped', async () => {
    const { invitationPage } = await import('../plugins/organizations/pages.js');
    const html = invitationPage({
      basePath: '/auth',
      csrfToken: 't',
      token: 'tok',
      organization: 'Acme <Labs>',
      role: 'admin',
      email: 'ada@example.com',
      signedIn: false,
      locale: { lang: 'ja', overrides: {} },
    });
    expect(html).toContain('<h1>Acme &lt;Labs&gt;に参加</h1>');
    expect(html).toContain('<strong>admin</strong>として招待されています（送信先：ada@example.com）。');
    expect(html).toContain(
      '回答するには、ada@example.comで<a href="/auth/signin?callbackUrl=%2Fauth%2Forg%2Finvitation%3Ftoken%3Dtok">サインイン</a>するか',
    );
  });
});

describe('the sign-in page of emailAndPassword()', async () => {
  const { page } = await setup({
    providers: [],
    emailAndPassword: { sendVerificationEmail: () => {}, sendResetPassword: () => {} },
  });

  it('translates its form and its links, and keeps the English ones as they were', async () => {
    const de = (await page('/auth/signin', 'de')).html;
    expect(de).toContain('<label for="credentials-email">E-Mail</label>');
    expect(de).toContain('<label for="credentials-password">Passwort</label>');
    expect(de).toContain('Mit E-Mail und Passwort anmelden');
    expect(de).toContain('>Passwort vergessen?</a>');
    expect(de).toContain('>Konto erstellen</a>');
    const en = (await page('/auth/signin', 'en')).html;
    expect(en).toContain('Sign in with Email and password');
    expect(en).toContain('>Forgot password?</a>');
  });
});

describe("username()'s settings page", async () => {
  const { username } = await import('../plugins/username/plugin.js');
  const { auth } = await makeFixture('database', { plugins: [username()] });

  it('is German, and a refused name reads in German while JSON keeps USERNAME_INVALID', async () => {
    const { TestClient } = await import('../testing/fixtures.js');
    const c = new TestClient(auth);
    await c.signIn();
    const de = { 'accept-language': 'de' };
    const page = await c.request('/auth/username/update', { headers: { accept: 'text/html', ...de } });
    expect(await page.text()).toContain('Sie haben noch keinen Benutzernamen.');
    const refused = await c.postForm('/auth/username/update', { username: 'a b' }, de);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Wählen Sie einen Benutzernamen aus Buchstaben');
    const json = await c.postJson('/auth/username/update', { username: 'a b' }, de);
    expect(((await json.json()) as { error: { code: string } }).error.code).toBe('USERNAME_INVALID');
  });
});

describe('the sign-up page fields', async () => {
  const { username } = await import('../plugins/username/plugin.js');
  const { page } = await setup({
    providers: [],
    plugins: [username()],
    emailAndPassword: {},
    user: { additionalFields: { company: { type: 'string' }, planTier: { type: 'string' } } },
    locale: { messages: { de: { 'field.company': 'Firma' } } },
  });

  it("label a plugin's field and a custom field in the page language; a field without one keeps its label", async () => {
    const de = (await page('/auth/signup', 'de')).html;
    expect(de).toContain('<label for="signup-field-username">Benutzername</label>');
    expect(de).toContain('<label for="signup-field-company">Firma</label>');
    expect(de).toContain('<label for="signup-field-planTier">Plan tier</label>');
    const en = (await page('/auth/signup', 'en')).html;
    expect(en).toContain('<label for="signup-field-username">Username</label>');
    expect(en).toContain('<label for="signup-field-company">Company</label>');
  });
});
