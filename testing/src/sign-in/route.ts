/**
 * `testSignInRoute()`: a test-only auth route that signs a browser in without walking the sign-in UI, for an app
 * served by another process (Playwright's `webServer`). Refuses to load in production.
 * @module
 */
import { AuthConfigError, AuthError, type AuthPlugin, type RouteContext } from '@framework/auth';
import { ensureUser } from './ensure-user.js';

/** The request header carrying the shared secret of {@link testSignInRoute}. */
export const TEST_SIGN_IN_HEADER = 'x-framework-test-sign-in';
/** The route's path under the auth's `basePath`. */
export const TEST_SIGN_IN_PATH = 'test/sign-in';
const MIN_SECRET_LENGTH = 32;

/**
 * Options of {@link testSignInRoute}.
 * @example
 * ```ts
 * const options: TestSignInRouteOptions = { secret: process.env.TEST_SIGN_IN_SECRET! };
 * ```
 */
export interface TestSignInRouteOptions {
  /** The shared secret the caller sends in the `x-framework-test-sign-in` header; at least 32 characters. */
  secret: string;
  /** Another place `NODE_ENV` is read (a runtime without `process.env`); `process.env` and the auth's `env` are checked too. */
  env?: Record<string, unknown>;
}

const processEnv = (): Record<string, unknown> =>
  (globalThis as { process?: { env?: Record<string, unknown> } }).process?.env ?? {};

function refuseProduction(env: Record<string, unknown>, where: string): void {
  if (env.NODE_ENV === 'production')
    throw new AuthConfigError(
      `testSignInRoute() refuses to load when NODE_ENV=production (${where}): it signs anyone in as any user. ` +
        'Add it to createAuth({ plugins }) in test builds only.',
    );
}

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/** Compares the SHA-256 digests in constant time, so the answer's timing says nothing about the secret. */
async function sameSecret(given: string | null, expected: Uint8Array): Promise<boolean> {
  if (given === null) return false;
  const got = await digest(given);
  let diff = 0;
  for (let i = 0; i < expected.length; i += 1) diff |= got[i]! ^ expected[i]!;
  return diff === 0;
}

async function signIn(ctx: RouteContext, expected: Uint8Array) {
  // A wrong or missing secret answers as if the route did not exist.
  if (!(await sameSecret(ctx.request.headers.get(TEST_SIGN_IN_HEADER), expected)))
    throw new AuthError('Not found', { code: 'NOT_FOUND', status: 404 });
  const adapter = ctx.auth.adapter;
  if (!adapter) throw new AuthError('testSignInRoute() needs the auth `adapter`', { code: 'INTERNAL_ERROR' });
  const roles = ctx.body.roles?.split(',').filter((role) => role !== '');
  const user = await ensureUser(adapter, {
    as: ctx.body.as ?? '',
    ...(ctx.body.name === undefined ? {} : { name: ctx.body.name }),
    ...(roles === undefined ? {} : { roles }),
  });
  const { value, expires } = await ctx.auth.strategy.issue({ user, account: null });
  const cookie = ctx.auth.config.cookies.sessionToken;
  return {
    status: 200,
    json: { user: { id: user.id, email: user.email } },
    cookies: [{ name: cookie.name, value, options: { ...cookie.options, expires } }],
    headers: { 'cache-control': 'no-store' },
  };
}

/**
 * An auth plugin serving `POST {basePath}/test/sign-in` for end-to-end tests: with the shared secret in the
 * `x-framework-test-sign-in` header and a body `{as, name?, roles?}` (`roles` comma-separated), it finds or
 * creates the user with that email (a new one has its email verified), stores the roles, and answers
 * `{user: {id, email}}` with the session cookie, as `auth.createSession` issues it (no sign-in callbacks, no
 * second factor). A wrong or missing secret answers 404 `NOT_FOUND`. The route takes no CSRF token: the secret is
 * the proof. `@framework/testing/playwright`'s `signIn` calls it when given `{ baseURL, secret }`.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) when `NODE_ENV` is `production` (in `options.env` or `process.env`,
 * or the auth's `env` at `createAuth`), or when `secret` is shorter than 32 characters.
 * @example
 * ```ts
 * import { createAuth } from '@framework/auth';
 * import { testSignInRoute } from '@framework/testing';
 *
 * const testOnly = process.env.E2E === '1' ? [testSignInRoute({ secret: process.env.TEST_SIGN_IN_SECRET! })] : [];
 * const auth = createAuth({ adapter, providers: [], plugins: [...testOnly] });
 * ```
 */
export function testSignInRoute(options: TestSignInRouteOptions): AuthPlugin<'testSignIn', undefined> {
  refuseProduction(processEnv(), 'process.env.NODE_ENV');
  if (options.env) refuseProduction(options.env, 'options.env');
  if (typeof options.secret !== 'string' || options.secret.length < MIN_SECRET_LENGTH)
    throw new AuthConfigError(`testSignInRoute(): \`secret\` must be at least ${MIN_SECRET_LENGTH} characters`);
  const expected = digest(options.secret);
  return {
    id: 'testSignIn',
    init(auth) {
      refuseProduction(auth.env, 'the auth `env`');
      return undefined;
    },
    routes: {
      [TEST_SIGN_IN_PATH]: { csrf: 'none', POST: async (ctx) => signIn(ctx, await expected) },
    },
  };
}
