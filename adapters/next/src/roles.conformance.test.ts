/** The role conformance suite against `requireRole(role, {throwError})` inside a Route Handler wrapped by `withAuth`. */
import { outcomeOfStatus, outcomeOfThrown, runRoleConformance } from '@framework/testing/conformance';
import { createAuthHelpers } from './index.js';

runRoleConformance('next requireRole in withAuth', async (auth, cookie, role) => {
  const { withAuth, requireRole } = createAuthHelpers(auth);
  const route = withAuth(async () => Response.json(await requireRole(role, { throwError: true })));
  const request = new Request('http://app.test/guarded', {
    headers: { accept: 'application/json', ...(cookie ? { cookie } : {}) },
  });
  return route(request, {}).then((res) => outcomeOfStatus(res.status), outcomeOfThrown);
});
