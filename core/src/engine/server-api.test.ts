/**
 * `auth.api`: the routes called from server code, typed, acting as the session in `headers`, throwing the
 * route's `AuthError`, and skipping only the CSRF checks (an HTTP request can never claim to be a server call).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createAuth } from '../auth.js';
import { AuthError } from '../errors.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { ORIGIN, SECRET } from '../testing/fixtures.js';
import type { AuthPlugin } from '../contract/types.js';
import type { OkJson, SessionJson } from '../contract/wire.js';
import { endpoint } from './endpoint.js';

const PASSWORD = 'correct horse battery';

const echoApi = {
  echoName: endpoint<{ name: string }, { ok: true; name: string; userId: string | null }>('POST', 'echo'),
};

/** A plugin with one route on `auth.api`. */
const echo = (): AuthPlugin<'echo', undefined, typeof echoApi> => ({
  id: 'echo',
  api: echoApi,
  routes: {
    echo: {
      POST: async (ctx) => {
        const { user } = await ctx.auth.readSession(ctx.request);
        return { status: 200, json: { ok: true, name: ctx.body.name ?? '', userId: user?.id ?? null } };
      },
    },
  },
});

function setup(withPasswords = true) {
  return createAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    adapter: createMemoryAdapter(),
    providers: [],
    logger: { error: () => {}, warn: () => {} },
    plugins: [echo()],
    ...(withPasswords ? { emailAndPassword: { autoSignIn: true } } : {}),
  });
}

const cookieOf = (headers: Headers) =>
  headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');

describe('auth.api', () => {
  it('signs up, signs in with returnHeaders, and reads the session those headers carry', async () => {
    const auth = setup();
    const signedUp = await auth.api.signUpEmail({ email: 'ada@example.com', password: PASSWORD, name: 'Ada' });
    expect(signedUp.ok).toBe(true);
    const { data, headers, status } = await auth.api.signInCredentials(
      { email: 'ada@example.com', password: PASSWORD },
      { returnHeaders: true },
    );
    expect(status).toBe(200);
    expect(data.ok).toBe(true);
    const session = await auth.api.getSession(undefined, { headers: { cookie: cookieOf(headers) } });
    expect(session?.user.email).toBe('ada@example.com');
    expect(await auth.api.getSession()).toBeNull();
  });

  it('throws the route’s AuthError, with its code and status', async () => {
    const auth = setup();
    await auth.api.signUpEmail({ email: 'ada@example.com', password: PASSWORD });
    const error = await auth.api
      .signInCredentials({ email: 'ada@example.com', password: 'wrong password!!' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: 'INVALID_CREDENTIALS', status: 401 });
    await expect(auth.api.listSessions()).rejects.toMatchObject({ code: 'UNAUTHENTICATED', status: 401 });
  });

  it('answers 404 NOT_FOUND for a built-in plugin that is not on', async () => {
    const auth = setup(false);
    await expect(auth.api.signUpEmail({ email: 'ada@example.com', password: PASSWORD })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    });
  });

  it('calls a plugin’s route, typed from its `api`, as the session in headers', async () => {
    const auth = setup();
    const { headers } = await auth.api.signUpEmail(
      { email: 'ada@example.com', password: PASSWORD },
      { returnHeaders: true },
    );
    const signedIn = await auth.api.echoName({ name: 'x' }, { headers: { cookie: cookieOf(headers) } });
    expect(signedIn).toMatchObject({ ok: true, name: 'x' });
    expect(signedIn.userId).toEqual(expect.any(String));
    expect((await auth.api.echoName({ name: 'y' })).userId).toBeNull();
  });

  it('skips CSRF for server calls only: the same POST over HTTP without a token is refused', async () => {
    const auth = setup();
    const res = await auth.handler(
      new Request(`${ORIGIN}/auth/echo`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', origin: ORIGIN },
        body: JSON.stringify({ name: 'x' }),
      }),
      { ip: '203.0.113.9' },
    );
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('CSRF_TOKEN_INVALID');
  });

  it('types every method from the routes’ declared bodies and answers', () => {
    const auth = setup();
    // Compiled, never run: the answers' types.
    const answers = async () => {
      expectTypeOf(await auth.api.getSession()).toEqualTypeOf<SessionJson | null>();
      expectTypeOf(await auth.api.signOut({})).toEqualTypeOf<OkJson>();
      expectTypeOf((await auth.api.signOut({}, { returnHeaders: true })).headers).toEqualTypeOf<Headers>();
    };
    expect(typeof answers).toBe('function');
    expectTypeOf(auth.api.echoName).parameter(0).toEqualTypeOf<{ name: string }>();
    // @ts-expect-error: a method no route declares
    expect(auth.api.nothingHere).toBeUndefined();
  });
});
