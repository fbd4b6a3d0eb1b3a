/** The role conformance suite against SvelteKit's `requireRole(event, role)` under `authHandle`. */
import { outcomeOfStatus, runRoleConformance } from '@framework/testing/conformance';
import { authHandle, requireRole } from './index.js';
import { fakeEvent, runHandle } from './kit-fake.js';

runRoleConformance('sveltekit requireRole', async (auth, cookie, role) => {
  const event = fakeEvent('/guarded', { headers: { accept: 'application/json', ...(cookie ? { cookie } : {}) } });
  try {
    const res = await runHandle(
      authHandle(auth, { building: false }),
      event,
      async (e) => new Response((await requireRole(e, role)).id),
    );
    return outcomeOfStatus(res.status);
  } catch {
    return 'misconfigured';
  }
});
