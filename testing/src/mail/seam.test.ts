/**
 * `ctx.mail` without hand wiring: an app's own createAuth with its own send hooks (which keep nothing), and every
 * message of the kit and its plugins (verification, reset, magic link, invitation, email code, SMS code) reaches
 * `ctx.mail` once, through the core's one seam (`auth.onMessage`). Wiring `tools.mail.hooks` as well records no
 * duplicate; an observer that throws breaks no send and leaks no secret to the log.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAuth, email, type Auth, type OutgoingMessage } from '@framework/auth';
import { createMemoryTenantStorage } from '@framework/auth/tenant';
import { createMemoryInvitationStorage, organizations } from '@framework/auth/plugins/organizations';
import { emailOTP } from '@framework/auth/plugins/email-otp';
import { phoneNumber } from '@framework/auth/plugins/phone-number';
import { createTestContext } from '../context/create-test-context.js';
import type { TestContext } from '../context/types.js';
import { PASSWORD, postJson } from '../__fixtures__/kit-requests.js';

let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.cleanup();
  ctx = undefined;
});

const logged: string[] = [];
const logger = { error: (m: string) => void logged.push(m), warn: (m: string) => void logged.push(m) };
/** The app's own hooks: they count, and keep no link or code. */
const appSent: string[] = [];
const keep = (kind: string) => async () => void appSent.push(kind);

describe('ctx.mail through the core seam', () => {
  it("records every kind of message of an app's own hooks, once each", async () => {
    ctx = await createTestContext({
      createApp: async (db, { origin, clock, mail }) => {
        const auth = createAuth({
          baseURL: origin,
          secret: 'seam-secret-seam-secret-seam-secret-0123',
          adapter: db.adapter,
          clock,
          env: {},
          logger,
          providers: [email({ from: 'login@example.com', sendVerificationRequest: keep('magic-link') })],
          // the mailbox hooks too: the context must not record their mails twice
          emailAndPassword: { ...mail.hooks, sendVerificationEmail: keep('verify-email') },
          plugins: [
            organizations({
              tenants: createMemoryTenantStorage(),
              invitations: createMemoryInvitationStorage(),
              sendInvitation: keep('invitation'),
            }),
            emailOTP({ sendVerificationOTP: keep('email-otp') }),
            phoneNumber({ sendOTP: keep('sms-otp') }),
          ],
        });
        await auth.migrate(); // the plugins' tables
        return auth;
      },
    });
    expect((await postJson(ctx, '/auth/signup', { email: 'owner@example.com', password: PASSWORD })).status).toBe(200);
    expect(ctx.mail.link({ to: 'owner@example.com', kind: 'verify-email' })).toContain('/auth/verify-email?token=');

    await postJson(ctx, '/auth/password/forgot', { email: 'owner@example.com' });
    await vi.waitFor(() => expect(ctx!.mail.list({ kind: 'reset-password' })).toHaveLength(1));

    await postJson(ctx, '/auth/signin/email', { email: 'guest@example.com' });
    expect(ctx.mail.code({ to: 'guest@example.com', kind: 'magic-link' })).toMatch(/^[\w-]{20,}$/);

    const created = await postJson(ctx, '/auth/org/create', { name: 'Acme' });
    const { organization } = (await created.json()) as { organization: { id: string } };
    await postJson(ctx, '/auth/org/invite', { organizationId: organization.id, email: 'bob@example.com' });
    expect(ctx.mail.link({ to: 'bob@example.com', kind: 'invitation' })).toContain('/auth/org/invitation?token=');

    await postJson(ctx, '/auth/email-otp/send', { email: 'otp@example.com', type: 'sign-in' });
    await vi.waitFor(() => expect(ctx!.mail.list({ kind: 'email-otp' })).toHaveLength(1));
    expect(ctx.mail.code({ to: 'otp@example.com', kind: 'email-otp' })).toMatch(/^\d{6}$/);

    const sms = await postJson(ctx, '/auth/phone-number/send-otp', {
      phoneNumber: '+442079460018',
      purpose: 'sign-in',
    });
    expect(sms.status).toBe(200);
    await vi.waitFor(() => expect(ctx!.mail.list({ kind: 'sms-otp' })).toHaveLength(1));
    expect(ctx.mail.code({ to: '+442079460018', kind: 'sms-otp' })).toMatch(/^\d{6}$/);

    // once each, although the reset went through the mailbox's own hook as well
    expect(ctx.mail.list().map((m) => m.kind)).toEqual([
      'verify-email',
      'reset-password',
      'magic-link',
      'invitation',
      'email-otp',
      'sms-otp',
    ]);
    expect(appSent.sort()).toEqual(['email-otp', 'invitation', 'magic-link', 'sms-otp', 'verify-email']);
    // no link or code reached the log
    for (const mail of ctx.mail.list())
      for (const secret of [mail.token, mail.code].filter(Boolean)) expect(logged.join('\n')).not.toContain(secret);
  });

  it('an observer that throws is logged by name and ignored; the send goes on; stopping it stops it', async () => {
    let built: Auth | undefined;
    ctx = await createTestContext({
      createApp: (db, { origin }) =>
        (built = createAuth({
          baseURL: origin,
          secret: 'seam-secret-seam-secret-seam-secret-0123',
          env: {},
          logger,
          adapter: db.adapter,
          providers: [email({ from: 'login@example.com', sendVerificationRequest: keep('magic-link') })],
        })),
    });
    const auth = built!;
    const seen: OutgoingMessage[] = [];
    const stopBroken = auth.onMessage(() => {
      throw new TypeError('broken observer');
    });
    const stop = auth.onMessage((message) => void seen.push(message));
    logged.length = 0;
    const before = appSent.length;
    expect((await postJson(ctx, '/auth/signin/email', { email: 'ada@example.com' })).status).toBe(200);
    expect(appSent.length).toBe(before + 1);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ kind: 'magic-link', channel: 'email', to: 'ada@example.com' });
    expect(logged).toEqual(['[auth] a message observer threw: TypeError']);
    stop();
    stopBroken();
    await postJson(ctx, '/auth/signin/email', { email: 'ada@example.com' });
    expect(seen).toHaveLength(1);
    // the context records on its own observer
    expect(ctx.mail.list({ kind: 'magic-link' })).toHaveLength(2);
  });
});
