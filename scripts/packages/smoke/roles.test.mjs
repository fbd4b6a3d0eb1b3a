// The role conformance suite, with the guard from a copy of the adapter and core that did not create the engine.
import { Hono } from 'hono';
import { expect, it } from 'vitest';
import { outcomeOfStatus, runRoleConformance } from '@framework/testing/conformance';
import { HONO_BUILDS, authPathSeenBy } from './adapters.mjs';

it('the adapter really sees a second copy of @framework/auth', () => {
  expect(authPathSeenBy('hono')).not.toBe(authPathSeenBy('app'));
  expect(authPathSeenBy('hono')).toContain('/@framework/hono/node_modules/@framework/auth/');
});

for (const [build, { authSession, authorize }] of Object.entries(HONO_BUILDS)) {
  runRoleConformance(`hono authorize (${build})`, async (auth, cookie, role) => {
    const app = new Hono();
    app.use('*', authSession(auth));
    app.get('/guarded', authorize(typeof role === 'string' ? { role } : { roles: [...role] }), (c) => c.text('ok'));
    const res = await app.request('http://app.test/guarded', {
      headers: { accept: 'application/json', ...(cookie ? { cookie } : {}) },
    });
    return outcomeOfStatus(res.status);
  });
}
