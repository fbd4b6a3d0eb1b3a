import { afterAll, describe, expect, it } from 'vitest';
import { createAuth, type Profile } from '@framework/auth';
import { createTestContext, type TestContext } from '@framework/testing';
import { createLocalIdp } from '@framework/testing/node';
import '@framework/testing/vitest';

async function submit(ctx: TestContext, path: string) {
  const { csrfToken } = (await (await ctx.fetch('/auth/csrf')).json()) as { csrfToken: string };
  return ctx.fetch(path, {
    method: 'POST',
    headers: { accept: 'text/html' },
    body: new URLSearchParams({ csrfToken }),
  });
}

describe('createLocalIdp', async () => {
  const idp = await createLocalIdp({ claims: ['groups'] });
  const profiles: Profile[] = [];
  const ctx = await createTestContext({
    createApp: (db, { origin }) =>
      createAuth({
        baseURL: origin,
        adapter: db.adapter,
        providers: [idp.provider({ origin })],
        callbacks: { signIn: ({ profile }) => (profile && profiles.push(profile), true) },
        env: {},
      }),
  });
  afterAll(async () => {
    await ctx.cleanup();
    await idp.stop();
  });

  async function signInThroughIdp(sub?: string) {
    const toIdp = await submit(ctx, '/auth/signin/local-idp');
    const location = toIdp.headers.get('location')!;
    expect(location.startsWith(`${idp.issuer}/`)).toBe(true);
    const back = await idp.authorize(location, sub);
    expect(back.origin).toBe(ctx.origin);
    return ctx.fetch(back.pathname + back.search);
  }

  it('signs in through the authorization code flow as the chosen user, with the claims set for the test', async () => {
    idp.addUser({ sub: 'ada', email: 'ada@example.com', name: 'Ada', groups: ['staff'] });
    idp.addUser({ sub: 'grace', email: 'grace@example.com', name: 'Grace' });
    expect(await signInThroughIdp('ada')).toRedirectTo('/');
    await expect(ctx).toBeSignedInAs('ada@example.com');
    expect(profiles.at(-1)).toMatchObject({ sub: 'ada', email: 'ada@example.com', groups: ['staff'] });
    const stored = await ctx.db.adapter.getUserByEmail('ada@example.com');
    expect(stored?.emailVerified).toBeInstanceOf(Date);
  });

  it('reads the claims at each sign-in, and signs in as whoever signInAs names', async () => {
    idp.users.get('grace')!.groups = ['admins'];
    idp.signInAs('grace');
    ctx.cookies.clear(); // signed in, the kit would link the provider's account to ada instead
    await signInThroughIdp();
    await expect(ctx).toBeSignedInAs('grace@example.com');
    expect(profiles.at(-1)).toMatchObject({ sub: 'grace', groups: ['admins'] });
  });

  it('refuses to guess among several users', async () => {
    idp.signInAs(undefined);
    const toIdp = await submit(ctx, '/auth/signin/local-idp');
    await expect(idp.authorize(toIdp.headers.get('location')!)).rejects.toThrow(/no user to sign in as/);
  });
});
