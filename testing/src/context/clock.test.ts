/**
 * `ctx.clock`: a verification link expires and a cron fires with `advance('25h')`, with no real waiting; the clock
 * refuses to go back by `advance`; `set` moves the auth's time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuth } from '@framework/auth';
import { createMemoryTwoFactorStorage, twoFactor } from '@framework/auth/plugins/two-factor';
import { createSignedInSession } from '../sign-in/session.js';
import { defineTrigger } from '@framework/trigger';
import { createTestRuntime } from '@framework/trigger/testing';
import { createTestContext } from './create-test-context.js';
import { createTestClock } from './clock.js';
import type { TestContext } from './types.js';
import { PASSWORD, postForm, postJson } from '../__fixtures__/kit-requests.js';

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.cleanup();
  ctx = undefined;
});

describe('createTestClock', () => {
  it('moves only when told: advance by a duration or ms, set to a date; never back by advance', async () => {
    const clock = createTestClock('2030-01-01T00:00:00Z');
    expect(clock.now()).toBe(Date.parse('2030-01-01T00:00:00Z'));
    await clock.advance('25h');
    await clock.advance(500);
    expect(clock.now()).toBe(Date.parse('2030-01-02T01:00:00.500Z'));
    await clock.set(new Date('2029-12-31T00:00:00Z'));
    expect(clock.now()).toBe(Date.parse('2029-12-31T00:00:00Z'));
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.set('not a date')).toThrow(RangeError);
  });
});

describe('ctx.clock', () => {
  it('the default app runs on it: a verification link expires after 24 h of the clock, with no waiting', async () => {
    ctx = await createTestContext({ now: '2030-01-01T00:00:00Z' });
    expect((await postJson(ctx, '/auth/signup', { email: 'ada@example.com', password: PASSWORD })).status).toBe(200);
    const token = ctx.mail.code({ to: 'ada@example.com', kind: 'verify-email' });
    await ctx.clock.advance('25h');
    const late = await postJson(ctx, '/auth/verify-email', { token });
    expect(late.status).toBe(400);
    expect((await ctx.db.adapter.getUserByEmail('ada@example.com'))?.emailVerified).toBeNull();

    await postJson(ctx, '/auth/verify-email/send', { email: 'ada@example.com' });
    // the resend is mailed after the (neutral) answer: wait for the second mail
    await vi.waitFor(() => expect(ctx!.mail.list({ kind: 'verify-email' })).toHaveLength(2));
    const fresh = ctx.mail.code({ to: 'ada@example.com', kind: 'verify-email' });
    expect(fresh).not.toBe(token);
    expect((await postForm(ctx, '/auth/verify-email', { token: fresh })).status).toBe(303);
    const verified = (await ctx.db.adapter.getUserByEmail('ada@example.com'))?.emailVerified;
    // stamped with the clock's time, not the real one
    expect(verified?.toISOString()).toBe('2030-01-02T01:00:00.000Z');
  });

  it("drives the app's createTestRuntime: advance('25h') fires a nightly cron, and the session expires", async () => {
    const fired: string[] = [];
    ctx = await createTestContext({
      createApp: (db, { clock, origin }) => ({
        auth: createAuth({
          baseURL: origin,
          adapter: db.adapter,
          clock,
          session: { strategy: 'database', maxAge: 86_400 },
          providers: [],
          env: {},
          logger: { error: () => {}, warn: () => {} },
        }),
        runtime: createTestRuntime({
          now: Date.parse('2030-01-01T00:00:00Z'),
          triggers: {
            nightly: defineTrigger({
              source: { type: 'scheduled', cron: '0 3 * * *' },
              handle: (event) => void fired.push(event.scheduledTime.toISOString()),
            }),
          },
        }),
      }),
      seed: (db) => db.adapter.createUser({ id: 'u1', email: 'ada@example.com' }),
    });
    // the context clock takes the runtime's time
    expect(ctx.clock.now()).toBe(Date.parse('2030-01-01T00:00:00Z'));
    const ada = ctx.withAuth({ userId: 'u1' });
    const me = async () =>
      (
        (await (await ada.fetch('/auth/session', { headers: { accept: 'application/json' } })).json()) as {
          user?: { id: string };
        } | null
      )?.user?.id ?? null;
    expect(await me()).toBe('u1');

    await ctx.clock.advance('25h');
    expect(fired).toEqual(['2030-01-01T03:00:00.000Z']);
    expect(await me()).toBeNull();
  });

  it("createSignedInSession enrols two-factor with the code of the auth's clock, not the real time", async () => {
    ctx = await createTestContext({
      now: '2030-01-01T00:00:00Z',
      createApp: (db, { clock, origin }) =>
        createAuth({
          baseURL: origin,
          secret: 'clock-secret-clock-secret-clock-secret-01',
          adapter: db.adapter,
          clock,
          providers: [],
          emailAndPassword: {},
          plugins: [twoFactor({ storage: createMemoryTwoFactorStorage() })],
          env: {},
          logger: { error: () => {}, warn: () => {} },
        }),
    });
    const signed = await createSignedInSession(
      { auth: ctx.auth!, baseURL: ctx.origin },
      { as: 'ada@example.com', twoFactor: true },
    );
    expect(signed.user.email).toBe('ada@example.com');
  });
});
