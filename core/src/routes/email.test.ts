import { describe, expect, it } from 'vitest';
import { createAuth, type CreateAuthOptions } from '../auth.js';
import { email, type EmailParams } from '../providers/email.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { sha256Hex } from '../crypto.js';
import { TestClient } from '../testing/fixtures.js';

function setup(overrides: Partial<CreateAuthOptions> = {}, send?: (p: EmailParams) => Promise<void>) {
  const sent: EmailParams[] = [];
  const adapter = createMemoryAdapter();
  const errors: string[] = [];
  const auth = createAuth({
    secret: 'email-test-secret-email-test-secret-01234',
    adapter,
    providers: [
      email({ from: 'login@app.test', maxAge: 600, sendVerificationRequest: send ?? (async (p) => void sent.push(p)) }),
    ],
    logger: { error: (m) => errors.push(m), warn: () => {} },
    ...overrides,
  });
  return { auth, adapter, sent, errors, client: () => new TestClient(auth) };
}

const errorOf = (res: Response) => new URL(res.headers.get('location')!, 'http://x').searchParams.get('error');

/** Opens a magic link as a person does: GET shows the page (nothing consumed), its button POSTs the token. */
async function useLink(c: TestClient, link: string): Promise<Response> {
  const url = new URL(link);
  const page = await c.request(url.pathname + url.search);
  if (page.status !== 200) return page;
  const html = await page.text();
  const fields = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1]!,
      m[2]!
        .replace(/&amp;/g, '&')
        .replace(/&#39;/g, "'")
        .replace(/&quot;/g, '"'),
    ]),
  );
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
  return c.request(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
    body: new URLSearchParams(fields).toString(),
  });
}

describe('email magic links', () => {
  it('sends a link whose token is stored hashed, and redirects to the verify-request page', async () => {
    const { client, sent, adapter } = setup();
    const res = await client().postForm('/auth/signin/email', { email: '  Ada@Example.COM ', callbackUrl: '/dash' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/auth/verify-request?provider=email');
    expect(sent).toHaveLength(1);
    const { identifier, url, token, expires, from } = sent[0]!;
    expect(identifier).toBe('ada@example.com');
    expect(from).toBe('login@app.test');
    expect(new URL(url).pathname).toBe('/auth/callback/email');
    expect(new URL(url).searchParams.get('token')).toBe(token);
    expect(expires.getTime()).toBeGreaterThan(Date.now() + 590_000);
    // Only the hash is stored: the raw token does not consume anything.
    // Stored under the magic-link namespace, by the token's SHA-256 only.
    const key = `magic-link:${identifier}`;
    expect(await adapter.useVerificationToken({ identifier: key, tokenHash: token })).toBeNull();
    expect(await adapter.useVerificationToken({ identifier, tokenHash: await sha256Hex(token) })).toBeNull();
    const stored = await adapter.useVerificationToken({ identifier: key, tokenHash: await sha256Hex(token) });
    expect(stored?.identifier).toBe('magic-link:ada@example.com');
  });

  it('answers the same way for known and unknown addresses', async () => {
    const { client, adapter } = setup();
    await adapter.createUser({ email: 'known@example.com' });
    const a = await client().postJson('/auth/signin/email', { email: 'known@example.com' });
    const b = await client().postJson('/auth/signin/email', { email: 'unknown@example.com' });
    expect(a.status).toBe(b.status);
    expect(await a.json()).toEqual(await b.json());
  });

  it('signs in from the link once, creates the user with emailVerified, and refuses a reused link', async () => {
    const { client, sent, adapter } = setup();
    const c = client();
    await c.postForm('/auth/signin/email', { email: 'new@example.com', callbackUrl: '/dash' });
    const link = sent[0]!.url;
    const first = await useLink(c, link);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/dash');
    const session = await c.session();
    expect(session?.user.email).toBe('new@example.com');
    const user = await adapter.getUserByEmail('new@example.com');
    expect(user?.emailVerified).toBeInstanceOf(Date);
    expect(await adapter.getAccount({ provider: 'email', providerAccountId: 'new@example.com' })).toMatchObject({
      type: 'email',
      userId: user!.id,
    });

    const again = await useLink(client(), link);
    expect(again.status).toBe(303);
    expect(errorOf(again)).toBe('Verification');
  });

  it('gives one session for two concurrent clicks', async () => {
    const { client, sent } = setup();
    await client().postJson('/auth/signin/email', { email: 'race@example.com' });
    const link = sent[0]!.url;
    const results = await Promise.all([useLink(client(), link), useLink(client(), link), useLink(client(), link)]);
    const withSession = results.filter((r) =>
      r.headers.getSetCookie().some((l) => /^framework\.session-token=[^;]+/.test(l)),
    );
    expect(withSession).toHaveLength(1);
    expect(results.filter((r) => errorOf(r) === 'Verification')).toHaveLength(2);
  });

  it('refuses an expired link, a wrong email and garbage', async () => {
    const { client, sent } = setup({});
    await client().postJson('/auth/signin/email', { email: 'late@example.com' });
    const link = new URL(sent[0]!.url);
    const wrong = new URL(link);
    wrong.searchParams.set('email', 'other@example.com');
    expect(errorOf(await useLink(client(), wrong.href))).toBe('Verification');
    expect(errorOf(await useLink(client(), 'http://app.test/auth/callback/email'))).toBe('Verification');
    expect(errorOf(await useLink(client(), 'http://app.test/auth/callback/email?token=x&email=%00'))).toBe(
      'Verification',
    );
    const { sent: shortSent, client: shortClient } = setup({});
    await shortClient().postJson('/auth/signin/email', { email: 'late@example.com' });
    const realNow = Date.now;
    Date.now = () => realNow() + 601_000;
    try {
      expect(errorOf(await useLink(shortClient(), shortSent[0]!.url))).toBe('Verification');
    } finally {
      Date.now = realNow;
    }
  });

  it('reports a failing sender as EmailSignInError, leaves no usable token, and leaks nothing', async () => {
    let captured: EmailParams | undefined;
    const { client, adapter, errors } = setup({}, async (p) => {
      captured = p;
      throw new Error('SMTP password is hunter2');
    });
    const res = await client().postForm('/auth/signin/email', { email: 'fail@example.com' });
    expect(res.status).toBe(303);
    expect(errorOf(res)).toBe('EmailSignInError');
    expect(
      await adapter.useVerificationToken({
        identifier: 'magic-link:fail@example.com',
        tokenHash: await sha256Hex(captured!.token),
      }),
    ).toBeNull();
    const json = await client().postJson('/auth/signin/email', { email: 'fail@example.com' });
    expect(json.status).toBe(502);
    expect(await json.text()).not.toContain('hunter2');
    expect(errors.join()).toContain('sendVerificationRequest threw');
  });

  it('passes email.verificationRequest to the signIn callback, which can deny', async () => {
    const calls: unknown[] = [];
    const { client, sent } = setup({
      callbacks: {
        signIn: ({ email: e, user }) => {
          calls.push({ e, email: user.email });
          return user.email !== 'blocked@example.com';
        },
      },
    });
    const denied = await client().postForm('/auth/signin/email', { email: 'blocked@example.com' });
    expect(errorOf(denied)).toBe('AccessDenied');
    expect(sent).toHaveLength(0);
    await client().postJson('/auth/signin/email', { email: 'ok@example.com' });
    expect(calls).toContainEqual({ e: { verificationRequest: true }, email: 'ok@example.com' });
    await useLink(client(), sent[0]!.url);
    expect(calls).toContainEqual({ e: { verificationRequest: false }, email: 'ok@example.com' });
  });

  it("never consumes a link on HEAD or GET (mail scanners, previews): only the page's POST signs in", async () => {
    const { client, sent, auth } = setup();
    await client().postJson('/auth/signin/email', { email: 'scan@example.com', callbackUrl: '/dash' });
    const link = new URL(sent[0]!.url);
    for (const method of ['HEAD', 'GET', 'GET', 'HEAD']) {
      const res = await auth.handler(new Request(link, { method, headers: { 'user-agent': 'LinkScanner/1.0' } }));
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie().some((l) => l.startsWith('framework.session-token='))).toBe(false);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
    }
    const person = client();
    const signedIn = await useLink(person, link.href);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/dash');
    expect((await person.session())?.user.email).toBe('scan@example.com');
  });

  it('the POST that consumes the token is CSRF-checked', async () => {
    const { client, sent, auth } = setup();
    await client().postJson('/auth/signin/email', { email: 'csrf@example.com' });
    const link = new URL(sent[0]!.url);
    const forged = await auth.handler(
      new Request('http://app.test/auth/callback/email', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
        body: new URLSearchParams({ token: link.searchParams.get('token')!, email: 'csrf@example.com' }).toString(),
      }),
    );
    expect(forged.status).toBe(403);
    expect((await useLink(client(), link.href)).status).toBe(303);
  });

  it('validates the address and needs CSRF', async () => {
    const { client, auth } = setup();
    expect((await client().postJson('/auth/signin/email', { email: 'not-an-address' })).status).toBe(400);
    const noCsrf = await auth.handler(
      new Request('http://app.test/auth/signin/email', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=a%40b.c',
      }),
    );
    expect(noCsrf.status).toBe(403);
  });

  it('renders the email form on the sign-in page and honours pages overrides', async () => {
    const { auth } = setup({ pages: { verifyRequest: '/check-mail' } });
    const html = await (await auth.handler(new Request('http://app.test/auth/signin'))).text();
    expect(html).toContain('action="/auth/signin/email"');
    expect(html).toContain('<label for="email-address">Email</label>');
    const res = await auth.handler(new Request('http://app.test/auth/verify-request?provider=email'));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/check-mail?provider=email');
  });
});
