/** The role conformance suite against Astro's `requireRole(context, role)` under `authMiddleware`. */
import { outcomeOfStatus, runRoleConformance } from '@framework/testing/conformance';
import { authMiddleware, requireRole } from './index.js';
import { runMiddleware } from './astro-fake.js';

runRoleConformance('astro requireRole', async (auth, cookie, role) => {
  const request = new Request('http://app.test/guarded', {
    headers: { accept: 'application/json', ...(cookie ? { cookie } : {}) },
  });
  try {
    const { response } = await runMiddleware(
      authMiddleware(auth),
      request,
      (context) => new Response(requireRole(context, role).id),
    );
    return outcomeOfStatus(response.status);
  } catch {
    return 'misconfigured';
  }
});
