/** `toHaveSentMail`: the mails a mailbox (or a test context's `ctx.mail`) captured from a real auth. */
import { afterAll, describe, expect, it } from 'vitest';
import '../vitest.js';
import { createTestContext } from '../context/create-test-context.js';
import { createMailbox } from '../mail/mailbox.js';
import { PASSWORD, postJson } from '../__fixtures__/kit-requests.js';

describe('toHaveSentMail', async () => {
  const ctx = await createTestContext();
  afterAll(() => ctx.cleanup());
  await postJson(ctx, '/auth/signup', { email: 'ada@example.com', password: PASSWORD });

  it('passes for a test context or its mailbox, by recipient and kind, and counts with times', () => {
    expect(ctx).toHaveSentMail({ to: 'ADA@example.com', kind: 'verify-email' });
    expect(ctx.mail).toHaveSentMail({ kind: 'verify-email', times: 1 });
    expect(ctx.mail).toHaveSentMail();
    expect(ctx).not.toHaveSentMail({ kind: 'reset-password' });
    expect(ctx).not.toHaveSentMail({ to: 'bob@example.com' });
  });

  it('fails listing what was sent, without links or tokens', () => {
    const token = ctx.mail.code({ kind: 'verify-email' });
    let message = '';
    try {
      expect(ctx).toHaveSentMail({ to: 'ada@example.com', kind: 'reset-password' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toBe(
      'expected to have sent a mail of kind "reset-password" to ada@example.com, but 0 match; 1 mail sent: verify-email to ada@example.com',
    );
    expect(message).not.toContain(token);
    expect(() => expect(ctx).toHaveSentMail({ kind: 'verify-email', times: 2 })).toThrow(
      'expected to have sent 2 mails of kind "verify-email", but 1 matches',
    );
    expect(() => expect(ctx).not.toHaveSentMail({ kind: 'verify-email' })).toThrow(
      'expected not to have sent a mail of kind "verify-email", but 1 matches',
    );
    expect(() => expect(createMailbox()).toHaveSentMail()).toThrow('but 0 match; no mail was sent');
  });

  it('refuses what is not a mailbox', () => {
    expect(() => expect({}).toHaveSentMail()).toThrow('toHaveSentMail: expected a mailbox or a test context');
    expect(() => expect(ctx).toHaveSentMail({ times: 1.5 })).toThrow('times must be a whole number');
  });
});
