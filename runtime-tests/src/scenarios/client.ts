/**
 * Builds the auth instance the scenarios sign in to, over any storage, with
 * the portable secret. The cookie-keeping client is the core's own test client.
 * @module
 */
import { makeFixture, type Fixture } from '../../../core/src/testing/fixtures.js';
import type { StorageAdapter } from '../../../core/src/storage/types.js';
import { PORTABLE_SECRET } from '../scenario.js';

export { EMAIL, PASSWORD } from '../../../core/src/testing/fixtures.js';

/** An auth instance with one registered user, login rate limits off (scenarios sign in often). */
export function signedOutFixture(strategy: 'jwt' | 'database', adapter?: StorageAdapter): Promise<Fixture> {
  return makeFixture(strategy, {
    secret: PORTABLE_SECRET,
    rateLimit: { login: false },
    ...(adapter ? { adapter } : {}),
  });
}
