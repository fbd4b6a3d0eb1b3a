/** `toHaveAuthError`: the kit's JSON error answers and thrown `AuthError`s, by code. */
import { afterAll, describe, expect, it } from 'vitest';
import '../vitest.js';
import { AuthError, UnauthenticatedError } from '@framework/auth';
import { createTestContext } from '../context/create-test-context.js';
import { PASSWORD, postJson } from '../__fixtures__/kit-requests.js';

describe('toHaveAuthError', async () => {
  const ctx = await createTestContext();
  afterAll(() => ctx.cleanup());
  await postJson(ctx, '/auth/signup', { email: 'ada@example.com', password: PASSWORD });

  it("passes for the kit's JSON answer with that code, and leaves the body readable", async () => {
    const taken = await postJson(ctx, '/auth/signup', { email: 'ada@example.com', password: PASSWORD });
    await expect(taken).toHaveAuthError('EMAIL_TAKEN');
    await expect(taken).not.toHaveAuthError('INVALID_REQUEST');
    expect(await taken.json()).toMatchObject({ error: { code: 'EMAIL_TAKEN' } });
  });

  it('fails naming the code and status it got, or why there is none', async () => {
    const short = await postJson(ctx, '/auth/signup', { email: 'bob@example.com', password: 'x' });
    await expect(expect(short).toHaveAuthError('EMAIL_TAKEN')).rejects.toThrow(
      'expected auth error EMAIL_TAKEN, but got INVALID_REQUEST (400)',
    );
    await expect(expect(short).not.toHaveAuthError('INVALID_REQUEST')).rejects.toThrow(
      'expected no auth error INVALID_REQUEST, but got INVALID_REQUEST (400)',
    );
    const page = await ctx.fetch('/auth/signin');
    await expect(expect(page).toHaveAuthError('NOT_FOUND')).rejects.toThrow(
      /the 200 response is not JSON \(content-type text\/html.*\); send accept: application\/json/,
    );
    await expect(expect(Response.json({ ok: true })).toHaveAuthError('NOT_FOUND')).rejects.toThrow(
      'the 200 response has no error.code',
    );
  });

  it('reads a thrown or rejected AuthError, and a function that throws one', async () => {
    await expect(new UnauthenticatedError()).toHaveAuthError('UNAUTHENTICATED');
    await expect(Promise.reject(new AuthError('no', { code: 'FORBIDDEN' }))).rejects.toHaveAuthError('FORBIDDEN');
    await expect(() => {
      throw new AuthError('slow down', { code: 'RATE_LIMITED' });
    }).toHaveAuthError('RATE_LIMITED');
    await expect(async () => {
      throw new AuthError('x', { code: 'NOT_FOUND' });
    }).toHaveAuthError('NOT_FOUND');
    await expect(expect(() => 1).toHaveAuthError('NOT_FOUND')).rejects.toThrow('but the function did not throw');
    await expect(expect(new TypeError('x')).toHaveAuthError('NOT_FOUND')).rejects.toThrow(
      'but it is a TypeError, not an AuthError',
    );
    await expect(expect({ code: 'NOT_FOUND' }).toHaveAuthError('NOT_FOUND')).rejects.toThrow(TypeError);
  });

  it('is typed by the error-code union', async () => {
    await expect(new UnauthenticatedError()).not.toHaveAuthError(
      // @ts-expect-error not an AuthErrorCode
      'NO_SUCH_CODE',
    );
  });
});
