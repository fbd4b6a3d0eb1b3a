/**
 * createAuth with credentials: both session strategies over memory storage,
 * database sessions over D1, refused passwords, and the AsyncLocalStorage
 * request scope.
 * @module
 */
import { getUser, requireAuth } from '../../../core/src/scope.js';
import { createD1Adapter } from '../../../core/src/storage/d1/adapter.js';
import type { StorageAdapter } from '../../../core/src/storage/types.js';
import { check, same, Unsupported, type Scenario, type ScenarioContext } from '../scenario.js';
import { EMAIL, signedOutFixture } from './client.js';

const SESSION_COOKIE = 'framework.session-token';

/** Signs in, reads the session, signs out, and checks the session is gone. */
async function signInRoundTrip(strategy: 'jwt' | 'database', adapter?: StorageAdapter): Promise<string> {
  const fixture = await signedOutFixture(strategy, adapter);
  const client = fixture.client();
  const res = await client.signIn();
  check(res.status === 200, `sign-in answered ${res.status}: ${await res.text()}`);
  const cookie = client.cookies.get(SESSION_COOKIE);
  check(cookie, 'no session cookie after sign-in');
  same((await client.session())?.user.email, EMAIL, 'session user');
  const state = await fixture.auth.getSession(
    new Request('http://app.test/', { headers: { cookie: `${SESSION_COOKIE}=${cookie}` } }),
  );
  same(state.user?.id, fixture.userId, 'auth.getSession user id');
  const out = await client.postJson('/auth/signout', {});
  check(out.status < 400, `sign-out answered ${out.status}`);
  same(await client.session(), null, 'session after sign-out');
  return cookie;
}

export const authScenarios: Scenario[] = [
  {
    name: 'auth: credentials sign-in, jwt sessions (memory storage)',
    async run(ctx) {
      ctx.artifacts.jwtCookie = await signInRoundTrip('jwt');
    },
  },
  {
    name: 'auth: credentials sign-in, database sessions (memory storage)',
    async run() {
      await signInRoundTrip('database');
    },
  },
  {
    name: 'auth: credentials sign-in, database sessions (D1)',
    async run(ctx: ScenarioContext) {
      if (!ctx.d1)
        throw new Unsupported(
          'no D1 binding in this runtime (plain Node has no D1; the Node 20 run borrows Miniflare’s, workerd has env.DB)',
        );
      const prefix = `rt_${ctx.runtime}_${crypto.randomUUID().slice(0, 8)}_`;
      await signInRoundTrip('database', createD1Adapter({ binding: ctx.d1, tablePrefix: prefix }));
    },
  },
  {
    name: 'auth: a wrong password is refused with INVALID_CREDENTIALS',
    async run() {
      const client = (await signedOutFixture('jwt')).client();
      const res = await client.signIn(EMAIL, 'not the password');
      same(res.status, 401, 'status');
      same(((await res.json()) as { error: { code: string } }).error.code, 'INVALID_CREDENTIALS', 'error code');
    },
  },
  {
    name: 'auth: request scope (AsyncLocalStorage) survives awaits and stays per request',
    async run() {
      const fixture = await signedOutFixture('jwt');
      const client = fixture.client();
      await client.signIn();
      const signedIn = new Request('http://app.test/me', { headers: { cookie: client.cookieHeader() } });
      const anonymous = new Request('http://app.test/me');
      const [mine, theirs] = await Promise.all([
        fixture.auth.run(signedIn, async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          await null;
          return requireAuth({ throwError: true }).email;
        }),
        fixture.auth.run(anonymous, async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          return getUser();
        }),
      ]);
      same(mine, EMAIL, 'user inside the signed-in scope');
      same(theirs, null, 'user inside the anonymous scope');
    },
  },
];
