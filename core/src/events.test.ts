/**
 * `createAuth({ events })`: each hook fires once with who, what, the
 * client's IP and User-Agent and one request id per request; a throwing
 * `on*` hook never breaks the flow; `beforeSignIn` may refuse.
 */
import { describe, expect, it } from 'vitest';
import { createAuth } from './auth.js';
import { AuthError } from './errors.js';
import type { AuthEvent, AuthEventName, AuthEvents } from './events.js';
import { createMemoryAdapter } from './storage/memory.js';
import { ORIGIN, SECRET, TestClient } from './testing/fixtures.js';

const PASSWORD = 'correct horse battery';

function setup(extra: Partial<AuthEvents> = {}) {
  const seen: AuthEvent<AuthEventName>[] = [];
  const record = (e: AuthEvent<AuthEventName>) => void seen.push(e);
  const errors: string[] = [];
  const auth = createAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    adapter: createMemoryAdapter(),
    providers: [],
    rateLimit: { login: false },
    logger: { error: (m) => void errors.push(m), warn: () => {} },
    emailAndPassword: { sendResetPassword: () => {} },
    events: {
      onSignUp: record,
      onSignIn: record,
      onSignInFailed: record,
      onSignOut: record,
      onPasswordChanged: record,
      onAccountDeleted: record,
      ...extra,
    },
  });
  return { auth, seen, errors, client: () => new TestClient(auth) };
}

describe('auth events', () => {
  it('reports sign-up, sign-in, a failed sign-in, password change, sign-out and deletion with IP, User-Agent and a request id', async () => {
    const { auth, seen } = setup();
    const c = new TestClient(auth);
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await c.postJson(
      '/auth/signup',
      { email: 'ada@example.com', password: PASSWORD },
      { 'user-agent': 'ada-laptop', traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    );
    expect(seen.map((e) => e.type)).toEqual(['onSignUp', 'onSignIn']);
    expect(seen[0]).toMatchObject({ user: { email: 'ada@example.com' }, userAgent: 'ada-laptop', requestId: traceId });
    expect(seen[1]).toMatchObject({ isNewUser: true, requestId: traceId });
    await new TestClient(auth).signIn('ada@example.com', 'wrong password');
    expect(seen.at(-1)).toMatchObject({
      type: 'onSignInFailed',
      provider: 'credentials',
      identifier: 'ada@example.com',
      reason: 'invalid-credentials',
    });
    expect(seen.at(-1)!.requestId).not.toBe(traceId);
    await c.postJson('/auth/password/change', {
      currentPassword: PASSWORD,
      newPassword: 'another long password',
      revokeOtherSessions: 'false',
    });
    expect(seen.at(-1)).toMatchObject({ type: 'onPasswordChanged', otherSessionsRevoked: false });
    await c.postJson('/auth/signout', {});
    expect(seen.at(-1)).toMatchObject({ type: 'onSignOut', user: { email: 'ada@example.com' }, everywhere: false });
    await c.signIn('ada@example.com', 'another long password');
    await c.postJson('/auth/account/delete', {});
    expect(seen.at(-1)).toMatchObject({ type: 'onAccountDeleted', user: { email: 'ada@example.com' } });
  });

  it('logs a throwing hook by its error name only, and the flow goes on', async () => {
    const { client, errors } = setup({
      onSignIn: () => {
        throw new TypeError('secret detail');
      },
    });
    const c = client();
    expect((await c.postJson('/auth/signup', { email: 'ada@example.com', password: PASSWORD })).status).toBe(200);
    expect(await c.session()).not.toBeNull();
    expect(errors.join('\n')).toContain('events.onSignIn threw TypeError');
    expect(errors.join('\n')).not.toContain('secret detail');
  });

  it('beforeSignIn refuses with its AuthError, and nothing is stored', async () => {
    const { auth, client } = setup({
      beforeSignIn: ({ user }) => {
        if (user.email?.endsWith('@blocked.test')) throw new AuthError('Blocked domain', { code: 'ACCESS_DENIED' });
      },
    });
    const res = await client().postJson('/auth/signup', { email: 'eve@blocked.test', password: PASSWORD });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: { code: 'ACCESS_DENIED' } });
    expect(await auth.adapter!.getUserByEmail('eve@blocked.test')).toBeNull();
  });
});
