import { describe, expect, it } from 'vitest';
import { createAuth } from '../auth.js';
import type { AuthScope } from '../scope.js';
import { authMiddleware } from './auth-middleware.js';
import { guardScope } from './guard.js';

const auth = createAuth({ session: { strategy: 'jwt' }, secret: 's'.repeat(40), providers: [] });

/** A real scope of a JSON request, with `user` placed on it. */
async function scopeWith(user: AuthScope['user']): Promise<AuthScope> {
  const request = new Request('http://app.test/admin', { headers: { accept: 'application/json' } });
  return auth.run(request, (scope) => Object.assign(scope, { user }));
}

/** The refusal of an outcome that is not `true`. */
async function refusalOf(outcome: true | Promise<Response | null>): Promise<Response | null> {
  if (outcome === true) throw new Error('passed in the same tick');
  return outcome;
}

describe('guardScope', () => {
  it('answers true in the same tick for a user who passes synchronous checks', async () => {
    const scope = await scopeWith({ id: 'u1' });
    expect(guardScope(authMiddleware(), scope)).toBe(true);
  });

  it('answers the refusal to send for a signed-out request, and null for one that passes later', async () => {
    const refusal = await refusalOf(guardScope(authMiddleware(), await scopeWith(null)));
    expect(refusal?.status).toBe(401);
    expect(await refusal!.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    const later = authMiddleware({ authorize: async (user) => user.id === 'u1' });
    const passed = guardScope(later, await scopeWith({ id: 'u1' }));
    expect(passed).toBeInstanceOf(Promise);
    expect(await passed).toBeNull();
    expect((await refusalOf(guardScope(later, await scopeWith({ id: 'u2' }))))?.status).toBe(403);
  });
});
