/**
 * The email-change mails reach `ctx.mail` on the default app with no wiring by the test: the link to the new
 * address (`verify-email`), and once it is followed the notice with the undo link to the old one.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestContext } from '../context/create-test-context.js';
import { PASSWORD, pathOf, postForm, postJson } from '../__fixtures__/kit-requests.js';
import '@framework/testing/vitest';

describe('ctx.mail: an email change', async () => {
  const ctx = await createTestContext();
  afterAll(() => ctx.cleanup());

  it('captures the new address link and the old address notice, each with its own link and token', async () => {
    await postForm(ctx, '/auth/signup', { email: 'old@example.com', password: PASSWORD });
    await expect(ctx).toBeSignedInAs('old@example.com');
    const asked = await postJson(ctx, '/auth/email/change', { newEmail: 'new@example.com', password: PASSWORD });
    expect(asked.status).toBe(200);
    expect(ctx).toHaveSentMail({ to: 'new@example.com', kind: 'verify-email', times: 1 });
    expect(ctx).not.toHaveSentMail({ kind: 'email-change-notice' });

    const link = ctx.mail.link({ to: 'new@example.com', kind: 'verify-email' });
    expect(ctx.mail.code({ to: 'new@example.com', kind: 'verify-email' })).toBe(
      new URL(link).searchParams.get('token'),
    );
    expect((await ctx.fetch(pathOf(link))).status).toBe(200); // the page; its button posts the link's fields
    await postForm(ctx, new URL(link).pathname, Object.fromEntries(new URL(link).searchParams));
    await expect(ctx).toBeSignedInAs('new@example.com');

    const notice = ctx.mail.last({ to: 'old@example.com', kind: 'email-change-notice' });
    expect(notice.url).toContain('/auth/email/change/undo');
    expect(notice.token).toEqual(expect.any(String));
  });
});
