/** The role conformance suite against Hono's `authorize({ role })` after `authSession`. */
import { Hono } from 'hono';
import { outcomeOfStatus, runRoleConformance } from '@framework/testing/conformance';
import { authSession, authorize, type AuthVariables } from './index.js';

runRoleConformance('hono authorize', async (auth, cookie, role) => {
  const app = new Hono<{ Variables: AuthVariables }>();
  app.use('*', authSession(auth));
  app.get('/guarded', authorize(typeof role === 'string' ? { role } : { roles: [...role] }), (c) => c.text('ok'));
  const res = await app.request('http://app.test/guarded', {
    headers: { accept: 'application/json', ...(cookie ? { cookie } : {}) },
  });
  return outcomeOfStatus(res.status);
});
