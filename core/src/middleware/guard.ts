/**
 * `guardScope(check, scope)`: an `authMiddleware` check run as a guard on a request scope an adapter opened, for
 * adapters whose guards sit before the route rather than around it (Express `authorize`, Fastify preHandlers).
 * @module
 */
import type { AuthScope } from '../scope.js';
import type { AuthMiddleware } from './types.js';

/** What the check's `next` answers: a marker, never sent. */
const PASSED = new Response(null, { status: 204 });

/**
 * Runs `check` (from `authMiddleware(options)`) on `scope`, the request's `Request` built only if a refusal or
 * `authorize` needs it. Answers `true` when the request passed in this tick (a user read from the scope, synchronous
 * checks: no promise to wait on), otherwise a promise of the refusal to send (401/403 or a redirect, as
 * `authMiddleware` answers) or `null` when it passed later.
 * @param check a check built once by `authMiddleware(options)`.
 * @param scope the request scope the adapter's session middleware opened.
 * @example
 * ```ts
 * const check = authMiddleware({ role: 'admin' });
 * const outcome = guardScope(check, scope);
 * if (outcome === true) return next();
 * outcome.then((refusal) => (refusal ? send(refusal) : next()), next);
 * ```
 */
export function guardScope(check: AuthMiddleware, scope: AuthScope): true | Promise<Response | null> {
  let passedNow = false;
  const checked = check(
    () => scope.request,
    () => {
      passedNow = true;
      return PASSED;
    },
    { scope },
  );
  if (passedNow) return true;
  return checked.then((response) => (response === PASSED ? null : response));
}
