/** `toBeSignedInAs`: read through the kit's own `auth.getSession`, for responses, contexts and cookie jars. */
import { afterAll, describe, expect, it } from 'vitest';
import '../vitest.js';
import { configureMatchers } from './defaults.js';
import { createTestContext } from '../context/create-test-context.js';
import { createCookieJar } from '../context/cookie-jar.js';
import { PASSWORD, postJson } from '../__fixtures__/kit-requests.js';

describe('toBeSignedInAs', async () => {
  const ctx = await createTestContext({
    seed: (db) => db.adapter.createUser({ id: 'bob', email: 'bob@example.com' }),
  });
  afterAll(() => ctx.cleanup());
  const signUp = await postJson(ctx, '/auth/signup', { email: 'ada@example.com', password: PASSWORD });
  const auth = ctx.auth!;
  const cookieName = auth.config.cookies.sessionToken.name;

  it("passes for a context's response that signs the user in, and for the context (any case)", async () => {
    await expect(signUp).toBeSignedInAs('ada@example.com');
    await expect(ctx).toBeSignedInAs('ADA@example.com');
    await expect(ctx.cookies).toBeSignedInAs('ada@example.com', { auth });
  });

  it('fails for another user, naming whose session it is', async () => {
    await expect(expect(signUp).toBeSignedInAs('bob@example.com')).rejects.toThrow(
      'expected the response to be signed in as bob@example.com, but its session is ada@example.com',
    );
    await expect(expect(ctx).not.toBeSignedInAs('ada@example.com')).rejects.toThrow(
      'expected the test context not to be signed in as ada@example.com, but it is',
    );
  });

  it('a withAuth view is signed in as its user once it made a request', async () => {
    const bob = ctx.withAuth({ userId: 'bob' });
    await bob.fetch('/auth/session');
    await expect(bob).toBeSignedInAs('bob@example.com');
  });

  it('a forged, tampered or cleared session cookie signs nobody in', async () => {
    const real = ctx.cookies.get(cookieName)!;
    const forged = [
      `${cookieName}=forged.value; Path=/`,
      `${cookieName}=${real.slice(0, -2)}xx; Path=/`,
      `${cookieName}=${real.split('.')[0]}.; Path=/`,
    ];
    for (const line of forged) {
      const response = new Response(null, { headers: { 'set-cookie': line } });
      await expect(response).not.toBeSignedInAs('ada@example.com', { auth });
      await expect(expect(response).toBeSignedInAs('ada@example.com', { auth })).rejects.toThrow(
        'expected the response to be signed in as ada@example.com, but its cookies hold no live session',
      );
    }
    const cleared = new Response(null, { headers: { 'set-cookie': `${cookieName}=${real}; Path=/; Max-Age=0` } });
    await expect(expect(cleared).toBeSignedInAs('ada@example.com', { auth })).rejects.toThrow(
      'expected the response to be signed in as ada@example.com, but it holds no cookie',
    );
  });

  it("reads auth.handler's own responses with configureMatchers({ auth })", async () => {
    const jar = createCookieJar();
    jar.store(signUp.headers.getSetCookie());
    const cookie = jar.header('/');
    const raw = await auth.handler(
      new Request('http://localhost/auth/session', { headers: { cookie, accept: 'application/json' } }),
    );
    expect(raw.status).toBe(200);
    await expect(expect(jar).toBeSignedInAs('ada@example.com')).rejects.toThrow(/no kit auth/);
    const restore = configureMatchers({ auth });
    try {
      await expect(jar).toBeSignedInAs('ada@example.com');
      await expect(raw).not.toBeSignedInAs('ada@example.com'); // it sets no cookie
    } finally {
      restore();
    }
  });

  it('refuses what it cannot read', async () => {
    await expect(expect(42).toBeSignedInAs('ada@example.com')).rejects.toThrow(TypeError);
    await expect(expect(signUp).toBeSignedInAs('')).rejects.toThrow('email must be a non-empty string');
  });
});
