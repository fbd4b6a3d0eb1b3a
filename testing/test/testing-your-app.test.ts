import { afterAll, describe, expect, it } from 'vitest';
import { createAuth } from '@framework/auth';
import { createTestContext, type TestContext } from '@framework/testing';
import '@framework/testing/vitest'; // the matchers: usually imported once, in a vitest setup file

/** Submits a form of the kit's pages: a POST with a fresh CSRF token. */
async function submit(ctx: TestContext, path: string, fields: Record<string, string>, accept = 'text/html') {
  const { csrfToken } = (await (await ctx.fetch('/auth/csrf')).json()) as { csrfToken: string };
  return ctx.fetch(path, { method: 'POST', headers: { accept }, body: new URLSearchParams({ csrfToken, ...fields }) });
}

describe('sign-up with email verification', async () => {
  const ctx = await createTestContext({
    // the app's auth, built on the context's database, its mails going to ctx.mail
    createApp: (db, { mail, origin }) =>
      createAuth({
        baseURL: origin,
        adapter: db.adapter,
        providers: [],
        emailAndPassword: { requireEmailVerification: true, ...mail.hooks },
      }),
  });
  afterAll(() => ctx.cleanup());
  const email = 'ada@example.com';
  const password = 'correct horse battery';

  it('signs in once the emailed link was followed', async () => {
    const signUp = await submit(ctx, '/auth/signup', { email, password });
    await expect(signUp).not.toBeSignedInAs(email);
    expect(ctx).toHaveSentMail({ to: email, kind: 'verify-email' });

    const early = await submit(ctx, '/auth/callback/credentials', { email, password }, 'application/json');
    await expect(early).toHaveAuthError('EMAIL_NOT_VERIFIED');

    // the link opens a page whose button posts the link's parameters
    const link = new URL(ctx.mail.link({ to: email, kind: 'verify-email' }));
    expect((await ctx.fetch(link.pathname + link.search)).status).toBe(200);
    const verified = await submit(ctx, link.pathname, Object.fromEntries(link.searchParams));
    expect(verified).toRedirectTo('/');

    const signIn = await submit(ctx, '/auth/callback/credentials', { email, password });
    await expect(signIn).toBeSignedInAs(email);
    await expect(ctx).toBeSignedInAs(email); // the context kept the cookie
  });
});
