/**
 * Cross-runtime checks, run after every runtime has run the main suite: the
 * password hashes and jwt session cookies the other runtimes made must be
 * accepted here.
 * @module
 */
import { verifyPassword } from '../../../core/src/password.js';
import { makeFixture } from '../../../core/src/testing/fixtures.js';
import {
  check,
  PORTABLE_PASSWORD,
  PORTABLE_SECRET,
  same,
  Unsupported,
  type Artifacts,
  type Scenario,
  type ScenarioContext,
} from '../scenario.js';
import { EMAIL } from './client.js';

/** The peers' values of one artifact, or Unsupported when no peer left one. */
function fromPeers(ctx: ScenarioContext, key: keyof Artifacts): [string, string][] {
  const found = Object.entries(ctx.peers).flatMap(([runtime, artifacts]) =>
    artifacts[key] ? [[runtime, artifacts[key]] as [string, string]] : [],
  );
  if (found.length === 0) throw new Unsupported(`no other runtime handed over a ${key}`);
  return found;
}

export const crossScenarios: Scenario[] = [
  {
    name: 'cross-runtime: password hashes made by the other runtimes verify here',
    async run(ctx) {
      for (const [runtime, hash] of fromPeers(ctx, 'passwordHash')) {
        same(await verifyPassword(PORTABLE_PASSWORD, hash), true, `hash from ${runtime}`);
        same(
          await verifyPassword(`${PORTABLE_PASSWORD}!`, hash),
          false,
          `wrong password against the hash from ${runtime}`,
        );
      }
    },
  },
  {
    name: 'cross-runtime: jwt session cookies signed by the other runtimes read back here',
    async run(ctx) {
      // The peers' users live in the peers' storage, not here: read their cookies by signature alone (no adapter).
      const { auth } = await makeFixture('jwt', { secret: PORTABLE_SECRET, adapter: undefined });
      for (const [runtime, cookie] of fromPeers(ctx, 'jwtCookie')) {
        const state = await auth.getSession(
          new Request('http://app.test/', { headers: { cookie: `framework.session-token=${cookie}` } }),
        );
        check(state.user, `the cookie from ${runtime} did not read back`);
        same(state.user.email, EMAIL, `user of the cookie from ${runtime}`);
      }
    },
  },
];
