/**
 * `@framework/auth-client/plugins/username` against the real engine with `username()`: the availability check, a
 * wrong password and a sign-in with the username, reading and changing it, a taken name, and sign-up with a name.
 */
import { describe, expect, it } from 'vitest';
import { passwordAccounts } from '@framework/auth';
import { username } from '@framework/auth/plugins/username';
import { getUsername, isUsernameAvailable, signIn, signUpUsername, updateUsername } from '../src/plugins/username.js';
import { engine } from './engine-fetch.js';

const SECRET = 'client-username-test-secret-0123456789abcdef';

describe('username client functions', () => {
  it('checks availability, signs in with a username, reads and changes it', async () => {
    const { auth, adapter, ada, browser } = await engine({
      secret: SECRET,
      plugins: [username()],
      rateLimit: { login: false },
    });
    const now = new Date();
    await auth.extensions.username.storage.assign({ username: 'ada', displayUsername: 'Ada', userId: ada.id }, now);
    const grace = await passwordAccounts(adapter).register({ email: 'grace@example.com', password: 'cobol-compiler' });
    await auth.extensions.username.storage.assign(
      { username: 'grace', displayUsername: 'grace', userId: grace.id },
      now,
    );

    const laptop = browser();
    const l = { fetch: laptop.fetch };
    expect(await isUsernameAvailable({ username: 'ADA' }, l)).toMatchObject({
      ok: true,
      data: { available: false, username: 'ada' },
    });
    expect(await isUsernameAvailable({ username: 'a\u200Bda' }, l)).toMatchObject({
      ok: false,
      status: 400,
      error: 'USERNAME_INVALID',
    });
    expect(await signIn.username({ username: 'ada', password: 'wrong password' }, l)).toMatchObject({
      ok: false,
      status: 401,
      error: 'INVALID_CREDENTIALS',
    });
    expect(await signIn.username({ username: 'nobody', password: 'wrong password' }, l)).toMatchObject({
      ok: false,
      status: 401,
      error: 'INVALID_CREDENTIALS',
    });
    const signedIn = await signIn.username({ username: 'Ada', password: 'analytical-engine', callbackUrl: '/home' }, l);
    expect(signedIn).toMatchObject({ ok: true, data: { url: '/home' } });
    expect((await laptop.client.getSession())?.user.id).toBe(ada.id);

    expect(await getUsername(l)).toMatchObject({ ok: true, data: { username: 'ada', displayUsername: 'Ada' } });
    expect(await updateUsername({ username: 'GRACE' }, l)).toMatchObject({
      ok: false,
      status: 409,
      error: 'USERNAME_TAKEN',
    });
    expect(await updateUsername({ username: 'Countess.Ada' }, l)).toMatchObject({
      ok: true,
      data: { username: 'countess.ada', displayUsername: 'Countess.Ada' },
    });
    expect(await isUsernameAvailable({ username: 'ada' }, l)).toMatchObject({ ok: true, data: { available: true } });
    expect(await getUsername({ fetch: browser().fetch })).toMatchObject({ ok: false, error: 'UNAUTHENTICATED' });
  });

  it('signs up with a username, refusing a taken or malformed one', async () => {
    const { auth, ada, browser } = await engine({
      secret: SECRET,
      emailAndPassword: {},
      plugins: [username()],
      rateLimit: { login: false },
    });
    await auth.extensions.username.storage.assign(
      { username: 'ada', displayUsername: 'Ada', userId: ada.id },
      new Date(),
    );
    const l = { fetch: browser().fetch };
    const password = 'cobol-compiler-1959';
    expect(await signUpUsername({ email: 'grace@example.com', password, username: 'ADA' }, l)).toMatchObject({
      ok: false,
      status: 409,
      error: 'USERNAME_TAKEN',
    });
    expect(await signUpUsername({ email: 'grace@example.com', password, username: 'gr\u200Bace' }, l)).toMatchObject({
      ok: false,
      status: 400,
      error: 'USERNAME_INVALID',
    });
    expect(await signUpUsername({ email: 'grace@example.com', password, username: 'Grace' }, l)).toMatchObject({
      ok: true,
    });
    expect(await getUsername(l)).toMatchObject({ ok: true, data: { username: 'grace', displayUsername: 'Grace' } });
    const other = { fetch: browser().fetch };
    expect(await signIn.username({ username: 'grace', password }, other)).toMatchObject({ ok: true });
  });
});
