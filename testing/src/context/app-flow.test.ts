/**
 * The proof of issue #45's "How it is checked": an app's own `createAuth` (its own send hooks, which capture
 * nothing) with magic links, two-factor and invitations, tested with `ctx.mail`, `ctx.totp` and `ctx.clock` and no
 * sleep. The clock starts at a fixed time on a TOTP step boundary; every expiry is reached by moving it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createAuth, email } from '@framework/auth';
import { createMemoryTenantStorage } from '@framework/auth/tenant';
import { createMemoryTwoFactorStorage, twoFactor } from '@framework/auth/plugins/two-factor';
import { createMemoryInvitationStorage, organizations } from '@framework/auth/plugins/organizations';
import { createTestContext } from './create-test-context.js';
import type { TestContext } from './types.js';
import { postForm, postJson } from '../__fixtures__/kit-requests.js';

const OWNER = 'owner@example.com';
const BOB = 'bob@example.com';
const START = '2030-01-01T09:00:00.000Z';
const SECRET = 'app-flow-secret-app-flow-secret-0123456789';
/** What the app's own hooks saw: recipients only, as a mailer would (the context records the rest). */
const sentByApp: string[] = [];

const ctx: TestContext = await createTestContext({
  now: START,
  createApp: (db, { origin, clock }) =>
    createAuth({
      baseURL: origin,
      secret: SECRET,
      adapter: db.adapter,
      clock,
      env: {},
      logger: { error: () => {}, warn: () => {} },
      providers: [
        email({
          from: 'login@example.com',
          sendVerificationRequest: async ({ identifier }) => void sentByApp.push(`magic-link ${identifier}`),
        }),
      ],
      plugins: [
        twoFactor({ storage: createMemoryTwoFactorStorage() }),
        organizations({
          tenants: createMemoryTenantStorage(),
          invitations: createMemoryInvitationStorage(),
          sendInvitation: async (mail) => void sentByApp.push(`invitation ${mail.email}`),
        }),
      ],
    }),
  seed: (db) => db.adapter.createUser({ id: 'bob', email: BOB, emailVerified: new Date(START) }),
});
afterAll(() => ctx.cleanup());

async function signedInAs(view: TestContext): Promise<string | null> {
  const res = await view.fetch('/auth/session', { headers: { accept: 'application/json' } });
  const body = (await res.json()) as { user?: { email?: string } } | null;
  return body?.user?.email ?? null;
}

/** Asks for a magic link and follows the newest one (the page's button posts the link's parameters). */
async function requestLink(view: TestContext, address: string): Promise<URL> {
  expect((await postForm(view, '/auth/signin/email', { email: address })).status).toBe(303);
  return new URL(view.mail.link({ to: address, kind: 'magic-link' }));
}
const follow = (view: TestContext, link: URL) => postForm(view, link.pathname, Object.fromEntries(link.searchParams));

describe('an app flow with magic links, two-factor and invitations on ctx.clock', () => {
  it('starts the clock where asked, and the auth runs on it', async () => {
    expect(ctx.clock.now()).toBe(Date.parse(START));
    const link = await requestLink(ctx, OWNER);
    expect(ctx.mail.last({ to: OWNER, kind: 'magic-link' }).sentAt.toISOString()).toBe(START);
    // the app's own hook ran too, and the context captured the link without it
    expect(sentByApp).toEqual([`magic-link ${OWNER}`]);
    expect(link.searchParams.get('token')).toBe(ctx.mail.code({ to: OWNER, kind: 'magic-link' }));
  });

  it('a magic link expires after 24 h of the clock: the 25h-old link is refused, a fresh one signs in', async () => {
    const stale = new URL(ctx.mail.link({ to: OWNER, kind: 'magic-link' }));
    await ctx.clock.advance('25h');
    await follow(ctx, stale);
    expect(await signedInAs(ctx)).toBeNull();
    const fresh = await requestLink(ctx, OWNER);
    expect(fresh.href).not.toBe(stale.href);
    await follow(ctx, fresh);
    expect(await signedInAs(ctx)).toBe(OWNER);
  });

  it('enrols two-factor with the code of the current step (ctx.totp reads ctx.clock)', async () => {
    const enabled = await postJson(ctx, '/auth/two-factor/enable', {});
    expect(enabled.status).toBe(200);
    const confirmed = await postJson(ctx, '/auth/two-factor/confirm', { code: await ctx.totp(OWNER) });
    expect(confirmed.status).toBe(200);
  });

  it('an invitation expires after 7 days of the clock; a new one is accepted', async () => {
    const created = await postJson(ctx, '/auth/org/create', { name: 'Acme' });
    const { organization } = (await created.json()) as { organization: { id: string } };
    expect((await postJson(ctx, '/auth/org/invite', { organizationId: organization.id, email: BOB })).status).toBe(200);
    const expired = ctx.mail.code({ to: BOB, kind: 'invitation' });
    const bob = ctx.withAuth({ userId: 'bob' });

    await ctx.clock.advance('7d');
    const refused = await postJson(bob, '/auth/org/invitation/accept', { token: expired });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);

    expect((await postJson(ctx, '/auth/org/invite', { organizationId: organization.id, email: BOB })).status).toBe(200);
    const token = ctx.mail.code({ to: BOB, kind: 'invitation' });
    expect(token).not.toBe(expired);
    const accepted = await postJson(bob, '/auth/org/invitation/accept', { token });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ organization: { id: organization.id, role: 'member' } });
    expect(sentByApp.filter((line) => line === `invitation ${BOB}`)).toHaveLength(2);
  });

  it('a second factor: a spent step is refused, the next step of the clock signs in; the challenge expires', async () => {
    const signIn = async () => {
      await postJson(ctx, '/auth/signout', {});
      expect(await signedInAs(ctx)).toBeNull();
      // the magic link stops at the second factor: no session yet
      await follow(ctx, await requestLink(ctx, OWNER));
      expect(await signedInAs(ctx)).toBeNull();
    };
    await signIn();
    const code = await ctx.totp(OWNER);
    expect((await postJson(ctx, '/auth/two-factor/verify', { code })).status).toBe(200);
    expect(await signedInAs(ctx)).toBe(OWNER);

    // Within the same 30 s step, the same code is spent.
    await signIn();
    const replay = await postJson(ctx, '/auth/two-factor/verify', { code });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ error: { code: 'TWO_FACTOR_INVALID_CODE' } });
    expect(await ctx.totp(OWNER)).toBe(code);
    // The next step's code works once the clock gets there (not before: it is two steps ahead of the last one used).
    await ctx.clock.advance('30s');
    const next = await ctx.totp(OWNER);
    expect(next).not.toBe(code);
    expect((await postJson(ctx, '/auth/two-factor/verify', { code: next })).status).toBe(200);
    expect(await signedInAs(ctx)).toBe(OWNER);

    // The challenge of a sign-in lasts 300 s of the clock: past it, even the right code is refused.
    await signIn();
    await ctx.clock.advance('6m');
    const late = await postJson(ctx, '/auth/two-factor/verify', { code: await ctx.totp(OWNER) });
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect(await signedInAs(ctx)).toBeNull();
  });
});
