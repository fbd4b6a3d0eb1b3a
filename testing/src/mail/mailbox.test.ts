/**
 * The mailbox: its queries, and its hooks plugged into a real auth instance in process (sign-up verification,
 * password reset, magic link, invitation), through `createTestContext` (`ctx.mail`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAuth, email, type EmailChangeNotice } from '@framework/auth';
import { createMemoryTenantStorage } from '@framework/auth/tenant';
import { createMemoryInvitationStorage, organizations } from '@framework/auth/plugins/organizations';
import { createTestContext } from '../context/create-test-context.js';
import type { TestContext } from '../context/types.js';
import { PASSWORD, pathOf, postForm, postJson } from '../__fixtures__/kit-requests.js';
import { createMailbox } from './mailbox.js';

const quiet = { error: () => {}, warn: () => {} };
let ctx: TestContext | undefined;
afterEach(async () => {
  await ctx?.cleanup();
  ctx = undefined;
});

describe('createMailbox', () => {
  it('answers the newest mail by recipient (any case) and kind, its link and code; clear forgets', () => {
    const mail = createMailbox();
    mail.capture({ kind: 'otp', to: ' Ada@Example.com ', code: '123456' });
    mail.capture({ kind: 'verify-email', to: 'ada@example.com', url: 'http://localhost/auth/verify-email?token=t1' });
    mail.capture({ kind: 'verify-email', to: 'bob@example.com', url: 'http://localhost/auth/verify-email?token=t2' });
    expect(mail.list().map((m) => [m.kind, m.to])).toEqual([
      ['otp', 'ada@example.com'],
      ['verify-email', 'ada@example.com'],
      ['verify-email', 'bob@example.com'],
    ]);
    expect(mail.list({ to: 'ADA@example.com' })).toHaveLength(2);
    expect(mail.last({ kind: 'verify-email' }).to).toBe('bob@example.com');
    expect(mail.link({ to: 'ada@example.com', kind: 'verify-email' })).toContain('token=t1');
    expect(mail.code({ to: 'ada@example.com', kind: 'verify-email' })).toBe('t1');
    expect(mail.code({ kind: 'otp' })).toBe('123456');
    expect(() => mail.link({ kind: 'otp' })).toThrow('mailbox: the last mail of kind "otp" has no link');
    mail.clear();
    expect(mail.list()).toEqual([]);
  });

  it('names the query and what was sent when nothing matches, never a link or a code', () => {
    const mail = createMailbox();
    expect(() => mail.last()).toThrow('mailbox: no mail of any kind; no mail was sent');
    mail.capture({ kind: 'reset-password', to: 'bob@example.com', url: 'http://localhost/r?token=secret-token' });
    let message = '';
    try {
      mail.link({ to: 'ada@example.com', kind: 'verify-email' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      'mailbox: no mail of kind "verify-email" to ada@example.com; 1 mail sent: reset-password to bob@example.com',
    );
    expect(message).not.toContain('secret-token');
  });
});

describe('ctx.mail: the hooks in a real auth', () => {
  it('captures the verification mail of a sign-up on the default app, with its link on the context origin', async () => {
    ctx = await createTestContext({ origin: 'http://app.test' });
    const res = await postJson(ctx, '/auth/signup', { email: 'Ada@Example.com', password: PASSWORD });
    expect(res.status).toBe(200);
    const mail = ctx.mail.last({ to: 'ada@example.com', kind: 'verify-email' });
    expect(mail.url).toMatch(/^http:\/\/app\.test\/auth\/verify-email\?token=/);
    expect(mail.token).toBe(new URL(mail.url!).searchParams.get('token'));
    // following the link verifies the address
    const user = await ctx.db.adapter.getUserByEmail('ada@example.com');
    expect(user?.emailVerified).toBeNull();
    const opened = await postForm(ctx, '/auth/verify-email', { token: ctx.mail.code({ kind: 'verify-email' }) });
    expect(opened.status).toBe(303);
    expect((await ctx.db.adapter.getUser(user!.id))?.emailVerified).toBeInstanceOf(Date);
  });

  it('captures the password-reset mail (sent without being awaited) by the time the answer arrives', async () => {
    ctx = await createTestContext({ seed: (db) => db.adapter.createUser({ id: 'u1', email: 'ada@example.com' }) });
    expect((await postJson(ctx, '/auth/password/forgot', { email: 'ada@example.com' })).status).toBe(200);
    expect(ctx.mail.link({ to: 'ada@example.com', kind: 'reset-password' })).toContain('/auth/password/reset?token=');
    // an unknown address gets the same answer and no mail
    await postJson(ctx, '/auth/password/forgot', { email: 'nobody@example.com' });
    expect(ctx.mail.list({ to: 'nobody@example.com' })).toEqual([]);
  });

  it('captures the magic link of the email() provider, and the link signs in', async () => {
    ctx = await createTestContext({
      createApp: (db, { mail, origin }) =>
        createAuth({
          baseURL: origin,
          adapter: db.adapter,
          logger: quiet,
          providers: [email({ from: 'login@example.com', ...mail.hooks })],
        }),
    });
    const res = await postForm(ctx, '/auth/signin/email', { email: 'ada@example.com' });
    expect(res.status).toBe(303);
    const link = new URL(ctx.mail.link({ to: 'ada@example.com', kind: 'magic-link' }));
    // the link opens a page whose button posts its parameters
    expect((await ctx.fetch(pathOf(link.href), { headers: { accept: 'text/html' } })).status).toBe(200);
    expect((await postForm(ctx, link.pathname, Object.fromEntries(link.searchParams))).status).toBe(303);
    const session = await (await ctx.fetch('/auth/session', { headers: { accept: 'application/json' } })).json();
    expect(session).toMatchObject({ user: { email: 'ada@example.com' } });
  });

  it('captures an invitation of organizations()', async () => {
    ctx = await createTestContext({
      createApp: (db, { mail, origin }) =>
        createAuth({
          baseURL: origin,
          adapter: db.adapter,
          logger: quiet,
          providers: [],
          emailAndPassword: { ...mail.hooks },
          plugins: [
            organizations({
              tenants: createMemoryTenantStorage(),
              invitations: createMemoryInvitationStorage(),
              sendInvitation: mail.hooks.sendInvitation,
            }),
          ],
        }),
    });
    await postJson(ctx, '/auth/signup', { email: 'owner@example.com', password: PASSWORD });
    const created = await postJson(ctx, '/auth/org/create', { name: 'Acme' });
    const { organization } = (await created.json()) as { organization: { id: string } };
    const invited = await postJson(ctx, '/auth/org/invite', {
      organizationId: organization.id,
      email: 'Bob@Example.com',
    });
    expect(invited.status).toBe(200);
    const mail = ctx.mail.last({ to: 'bob@example.com', kind: 'invitation' });
    expect(mail.url).toContain('/auth/org/invitation?token=');
    expect(ctx.mail.code({ to: 'bob@example.com', kind: 'invitation' })).toBe(mail.token);
    expect((mail.data as { organization: { name: string } }).organization.name).toBe('Acme');
  });

  it('captures the email-change notice to the old address', async () => {
    const mail = createMailbox();
    const notice = {
      user: { id: 'u1', email: 'new@example.com', name: null, emailVerified: null, image: null },
      url: 'http://localhost/auth/email/change/undo?token=undo-1',
      token: 'undo-1',
      email: 'Old@Example.com',
      newEmail: 'new@example.com',
      expires: new Date(),
    } as EmailChangeNotice;
    await mail.hooks.sendEmailChangeNotice(notice);
    expect(mail.last({ kind: 'email-change-notice' })).toMatchObject({ to: 'old@example.com', token: 'undo-1' });
    expect(mail.last().data).toBe(notice);
  });
});
