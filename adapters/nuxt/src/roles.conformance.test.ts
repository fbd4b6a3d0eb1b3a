/** The role conformance suite against `requireRole(event, role)` in an h3 route, over a real server. */
import { defineEventHandler } from 'h3';
import { outcomeOfStatus, runRoleConformance } from '@framework/testing/conformance';
import { requireRole } from './index.js';
import { startH3App } from './h3-server.js';

runRoleConformance('nuxt requireRole', async (auth, cookie, role) => {
  const app = await startH3App(auth, [
    ['get', '/guarded', defineEventHandler(async (event) => (await requireRole(event, role)).id)],
  ]);
  try {
    const res = await fetch(`${app.baseUrl}/guarded`, {
      headers: { accept: 'application/json', ...(cookie ? { cookie } : {}) },
      redirect: 'manual',
    });
    return outcomeOfStatus(res.status);
  } finally {
    await app.close();
  }
});
