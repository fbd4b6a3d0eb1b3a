/**
 * The role conformance suite against Fastify, over a real server: the `authorize({ role })` preHandler, and the
 * core's `requireRole()` in a handler answered by `authErrorHandler`.
 */
import Fastify from 'fastify';
import { requireRole } from '@framework/auth';
import { outcomeOfStatus, runRoleConformance, type RoleGuardDriver } from '@framework/testing/conformance';
import { authPlugin, authorize } from './index.js';

function driver(route: 'preHandler' | 'handler'): RoleGuardDriver {
  return async (auth, cookie, role) => {
    const app = Fastify();
    // requireRole() in a handler needs the request scope; the preHandler guard works without it (the default).
    await app.register(authPlugin, { auth, log: () => {}, ...(route === 'handler' ? { scope: true } : {}) });
    if (route === 'preHandler')
      app.get(
        '/guarded',
        { preHandler: authorize(typeof role === 'string' ? { role } : { roles: [...role] }) },
        () => 'ok',
      );
    else app.get('/guarded', () => requireRole(role).id);
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(`${base}/guarded`, {
        headers: { accept: 'application/json', ...(cookie ? { cookie } : {}) },
        redirect: 'manual',
      });
      return outcomeOfStatus(res.status);
    } finally {
      await app.close();
    }
  };
}

runRoleConformance('fastify authorize', driver('preHandler'));
runRoleConformance('fastify requireRole', driver('handler'));
