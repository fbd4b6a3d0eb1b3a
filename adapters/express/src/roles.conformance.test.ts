/**
 * The role conformance suite against Express: the core's `requireRole()` in
 * a route under `authSession`, answered by `authErrorHandler` and
 * `finalErrorHandler`, over a real server.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { requireRole } from '@framework/auth';
import { outcomeOfStatus, runRoleConformance } from '@framework/testing/conformance';
import { authErrorHandler, authSession, finalErrorHandler } from './index.js';

runRoleConformance('express requireRole', async (auth, cookie, role) => {
  const app = express();
  app.use(authSession(auth));
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
});
