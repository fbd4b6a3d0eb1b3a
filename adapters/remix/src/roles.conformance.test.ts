/** The role conformance suite against React Router's `requireRole(request, role)` from `createAuthHelpers`. */
import { outcomeOfThrown, runRoleConformance } from '@framework/testing/conformance';
import { createAuthHelpers } from './index.js';

runRoleConformance('react router requireRole', async (auth, cookie, role) => {
  const request = new Request('http://app.test/guarded', {
    headers: { accept: 'application/json', ...(cookie ? { cookie } : {}) },
  });
  return createAuthHelpers(auth)
    .requireRole(request, role)
    .then(() => 'allowed' as const, outcomeOfThrown);
});
