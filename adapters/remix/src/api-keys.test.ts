/**
 * `apiKeys()` with the React Router / Remix helpers: the key's owner in
 * loaders, and a key past its budget thrown as the kit's 429 Response.
 */
import { describe, expect, it } from 'vitest';
import { getUser, hasPermission } from '@framework/auth';
import { apiKeyTestApp } from '../../../core/src/plugins/api-keys/test-key.js';
import { createAuthHelpers } from './index.js';

const ORIGIN = 'http://app.test';
const get = (key: string) =>
  new Request(`${ORIGIN}/api/posts`, { headers: { authorization: `Bearer ${key}`, accept: 'application/json' } });

describe('apiKeys() with the Remix helpers', () => {
  it('withAuth ({scope: true}) runs the loader as the key owner; past the budget it throws a 429 Response', async () => {
    const { auth, userId, key } = await apiKeyTestApp(ORIGIN, 'posts:read', 1);
    const { withAuth } = createAuthHelpers(auth, { scope: true });
    const loader = withAuth(({ user }) => ({
      arg: user?.id,
      helper: getUser()?.id,
      edit: hasPermission('posts:edit'),
    }));
    expect((await loader({ request: get(key) })).data).toStrictEqual({ arg: userId, helper: userId, edit: false });
    const refused = await loader({ request: get(key) }).catch((thrown: unknown) => thrown);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(429);
    expect((refused as Response).headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
  });

  it('withAuth by default hands the loader the key owner; past the budget it throws a 429 Response', async () => {
    const { auth, userId, key } = await apiKeyTestApp(ORIGIN, 'posts:read', 1);
    const loader = createAuthHelpers(auth).withAuth(({ user }) => ({ arg: user?.id }));
    expect((await loader({ request: get(key) })).data).toStrictEqual({ arg: userId });
    const refused = await loader({ request: get(key) }).catch((thrown: unknown) => thrown);
    expect([refused instanceof Response, (refused as Response).status]).toStrictEqual([true, 429]);
  });

  it('getUser throws the 429 Response too', async () => {
    const { auth, key } = await apiKeyTestApp(ORIGIN, 'posts:read', 1);
    const helpers = createAuthHelpers(auth);
    await helpers.getUser(get(key));
    const refused = await helpers.getUser(get(key)).catch((thrown: unknown) => thrown);
    expect([refused instanceof Response, (refused as Response).status]).toStrictEqual([true, 429]);
  });
});
