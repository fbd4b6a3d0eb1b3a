/**
 * The role conformance suite against Express over a real server: the `authorize({ role })` middleware (in both
 * `authSession` modes), and the core's `requireRole()` in a route under `authSession`, answered by
 * `authErrorHandler` and `finalErrorHandler`.
 */
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import { requireRole } from '@framework/auth';
import { outcomeOfStatus, runRoleConformance, type RoleGuardDriver } from '@framework/testing/conformance';
import { authErrorHandler, authorize, authSession, finalErrorHandler } from './index.js';

function driver(guard: 'authorize' | 'requireRole', scope = true): RoleGuardDriver {
  return async (auth, cookie, role) => {
    const app = express();
    app.use(authSession(auth, { scope }));
    const send: RequestHandler = (_req, res) => {
      res.send('ok');
    };
    if (guard === 'authorize')
      app.get('/guarded', authorize(typeof role === 'string' ? { role } : { roles: [...role] }), send);
    else
      app.get('/guarded', (_req, res) => {
        res.send(requireRole(role).id);
      });
    app.use(authErrorHandler(auth));
    app.use(finalErrorHandler({ log: () => {} }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/guarded`, {
        headers: { accept: 'application/json', ...(cookie ? { cookie } : {}) },
        redirect: 'manual',
      });
      return outcomeOfStatus(res.status);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  };
}

runRoleConformance('express requireRole', driver('requireRole'));
runRoleConformance('express authorize', driver('authorize'));
runRoleConformance('express authorize (scope: false)', driver('authorize', false));
