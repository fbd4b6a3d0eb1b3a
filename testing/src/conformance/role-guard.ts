/**
 * The role conformance suite: every adapter's role guard must reach the same
 * outcome as the core's `checkRole` for the same user, role and
 * configuration, so the adapters cannot drift apart again (SvelteKit's and
 * React Router's guards once fell back to `user.role` without `rbac`, while
 * the core and Hono refused).
 *
 * @example
 * ```ts
 * runRoleConformance('remix', async (auth, cookie, role) => {
 *   const request = new Request('http://app.test/admin', { headers: cookie ? { cookie } : {} });
 *   return createAuthHelpers(auth).requireRole(request, role).then(() => 'allowed', classifyThrown);
 * });
 * ```
 * @module
 */
import { describe, expect, it } from 'vitest';
import type { Auth } from '@framework/auth';
import { authFixture } from './auth-fixture.js';

/**
 * What a guard did: let the user through, refused as signed out (401 / redirect), refused the role (403), or
 * failed on the configuration.
 */
export type RoleOutcome = 'allowed' | 'unauthenticated' | 'forbidden' | 'misconfigured';

/**
 * Runs an adapter's role guard for `role` on a JSON request carrying `cookie` (none: signed out), and tells
 * the outcome.
 */
export type RoleGuardDriver = (
  auth: Auth,
  cookie: string | null,
  role: string | readonly string[],
) => Promise<RoleOutcome>;

/**
 * The outcome an HTTP status stands for: 2xx allowed, 401 / 3xx signed out, 403 forbidden, anything else
 * misconfigured.
 */
export function outcomeOfStatus(status: number): RoleOutcome {
  if (status >= 200 && status < 300) return 'allowed';
  if (status === 401 || (status >= 300 && status < 400)) return 'unauthenticated';
  if (status === 403) return 'forbidden';
  return 'misconfigured';
}

/** The outcome of something a guard threw: a Response by its status, any other error misconfigured. */
export function outcomeOfThrown(thrown: unknown): RoleOutcome {
  if (thrown instanceof Response) return outcomeOfStatus(thrown.status);
  return 'misconfigured';
}

interface RoleCase {
  rbac: boolean;
  who: string | null;
  role: string | readonly string[];
  expected: RoleOutcome;
}

const CASES: RoleCase[] = [
  { rbac: true, who: 'ada@example.com', role: 'admin', expected: 'allowed' },
  { rbac: true, who: 'bob@example.com', role: 'viewer', expected: 'allowed' },
  { rbac: true, who: 'bob@example.com', role: 'admin', expected: 'forbidden' },
  { rbac: true, who: 'bob@example.com', role: ['admin', 'editor'], expected: 'allowed' },
  { rbac: true, who: 'carol@example.com', role: 'viewer', expected: 'forbidden' },
  { rbac: true, who: 'dave@example.com', role: 'viewer', expected: 'allowed' },
  { rbac: true, who: 'dave@example.com', role: 'editor', expected: 'forbidden' },
  { rbac: true, who: null, role: 'admin', expected: 'unauthenticated' },
  { rbac: true, who: 'ada@example.com', role: 'superuser', expected: 'misconfigured' },
  { rbac: false, who: 'ada@example.com', role: 'admin', expected: 'misconfigured' },
  { rbac: false, who: 'bob@example.com', role: ['editor'], expected: 'misconfigured' },
  { rbac: false, who: 'dave@example.com', role: 'viewer', expected: 'misconfigured' },
];

/**
 * Declares the role conformance tests for one adapter: each case signs a
 * fixture user in (see `authFixture`: admin, editor, no role, `roles`
 * array), runs `guard`, and expects the outcome every adapter must give.
 */
export function runRoleConformance(name: string, guard: RoleGuardDriver): void {
  describe(`role conformance: ${name}`, () => {
    for (const { rbac, who, role, expected } of CASES) {
      const title = `${rbac ? 'with' : 'without'} rbac, ${who ?? 'signed out'} needing ${JSON.stringify(role)}: ${expected}`;
      it(title, async () => {
        const { auth, signIn } = await authFixture({ rbac });
        const cookie = who ? await signIn(who) : null;
        expect(await guard(auth, cookie, role)).toBe(expected);
      });
    }
  });
}
