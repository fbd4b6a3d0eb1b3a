/**
 * `apiKeys()` behind `authHandle`: the key's owner in the request scope, and
 * a key past its budget answered 429 by the hook (not a 500).
 */
import { describe, expect, it } from 'vitest';
import { getSession, getUser, hasPermission } from '@framework/auth';
import { isApiKeySession } from '@framework/auth/plugins/api-keys';
import { apiKeyTestApp } from '../../../core/src/plugins/api-keys/test-key.js';
import { ORIGIN } from '@framework/testing/conformance';
import { authHandle, requireUser } from './index.js';
import type { AuthLocals } from './locals.js';
import { fakeEvent, runHandle } from './kit-fake.js';

describe('apiKeys() with SvelteKit', () => {
  it('runs the route as the key owner with the key permissions ({scope: true}); past the budget the hook answers 429 RATE_LIMITED', async () => {
    const { auth, userId, key } = await apiKeyTestApp(ORIGIN, 'posts:read', 1);
    const handle = authHandle(auth, { building: false, scope: true });
    const route = () =>
      Response.json({ user: getUser()?.id, apiKey: isApiKeySession(getSession()), edit: hasPermission('posts:edit') });
    const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
    const ok = await runHandle(handle, fakeEvent('/api/posts', { headers }), route);
    expect(await ok.json()).toStrictEqual({ user: userId, apiKey: true, edit: false });
    expect(ok.headers.getSetCookie()).toStrictEqual([]);
    const refused = await runHandle(handle, fakeEvent('/api/posts', { headers }), route);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
  });

  it('by default the key owner is in locals; past the budget the hook answers 429 RATE_LIMITED before the route', async () => {
    const { auth, userId, key } = await apiKeyTestApp(ORIGIN, 'posts:read', 1);
    const handle = authHandle(auth, { building: false });
    const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
    let routed = 0;
    const route = (event: Parameters<typeof requireUser>[0]) => {
      routed++;
      return Response.json({ user: (event.locals as AuthLocals).user?.id });
    };
    expect(await (await runHandle(handle, fakeEvent('/api/posts', { headers }), route)).json()).toStrictEqual({
      user: userId,
    });
    const refused = await runHandle(handle, fakeEvent('/api/posts', { headers }), route);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    expect(routed).toBe(1);
  });

  it('with {lazy: true}, a key past its budget read through locals.auth() or a guard is 429 RATE_LIMITED, never a 500', async () => {
    const { auth, userId, key } = await apiKeyTestApp(ORIGIN, 'posts:read', 1);
    const handle = authHandle(auth, { building: false, lazy: true });
    const headers = { authorization: `Bearer ${key}`, accept: 'application/json' };
    const viaLocals = async (event: Parameters<typeof requireUser>[0]) =>
      Response.json({ user: (await (event.locals as AuthLocals).auth()).user?.id });
    expect(await (await runHandle(handle, fakeEvent('/api/posts', { headers }), viaLocals)).json()).toStrictEqual({
      user: userId,
    });
    for (const route of [
      viaLocals,
      async (event: Parameters<typeof requireUser>[0]) =>
        Response.json({ user: (await requireUser(event, { throwError: true })).id }),
    ]) {
      const refused = await runHandle(handle, fakeEvent('/api/posts', { headers }), route);
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    }
  });
});
