import { describe, expect, it } from 'vitest';
import { getUser, requireAuth, withRequestScope } from './scope.js';
import { bearerStubPlugin, makeFixture, ORIGIN } from './testing/fixtures.js';

describe('auth.openScope and withRequestScope', async () => {
  const jwt = await makeFixture('jwt');
  const db = await makeFixture('database');

  async function signedIn(fixture: typeof jwt): Promise<string> {
    const c = fixture.client();
    await c.signIn();
    return c.cookieHeader();
  }

  it('builds the scope auth.run would enter, without entering it', async () => {
    for (const fixture of [jwt, db]) {
      const cookie = await signedIn(fixture);
      const request = new Request(`${ORIGIN}/x`, { headers: { cookie } });
      const scope = await fixture.auth.openScope(request);
      expect(scope.user?.email).toBe('ada@example.com');
      expect(scope.session?.user.email).toBe('ada@example.com');
      expect(scope.request).toBe(request);
      expect(() => getUser()).toThrow(/outside a request scope/);
      expect(withRequestScope(scope, () => requireAuth().email)).toBe('ada@example.com');
      expect(() => getUser()).toThrow(/outside a request scope/);
    }
  });

  it('answers a JWT verified before without a promise, and a database session with one', async () => {
    const cookie = await signedIn(jwt);
    const request = () => new Request(`${ORIGIN}/x`, { headers: { cookie } });
    await jwt.auth.openScope(request());
    expect(jwt.auth.openScope(request())).not.toBeInstanceOf(Promise);
    const dbCookie = await signedIn(db);
    expect(db.auth.openScope(new Request(`${ORIGIN}/x`, { headers: { cookie: dbCookie } }))).toBeInstanceOf(Promise);
  });

  it('auth.run always answers with a promise: a throwing or returning fn, a scope ready now or later', async () => {
    const cookie = await signedIn(jwt);
    const request = () => new Request(`${ORIGIN}/x`, { headers: { cookie } });
    await jwt.auth.openScope(request());
    // The scope is ready in this tick: fn runs inside it before run returns, and its throw is a rejection.
    let ranInside = false;
    const returned = jwt.auth.run(request(), () => {
      ranInside = requireAuth().email === 'ada@example.com';
      return 42;
    });
    expect(ranInside).toBe(true);
    await expect(returned).resolves.toBe(42);
    const thrown = jwt.auth.run(request(), () => {
      throw new Error('boom');
    });
    expect(thrown).toBeInstanceOf(Promise);
    await expect(thrown).rejects.toThrow('boom');
    await expect(jwt.auth.run(request(), async () => getUser()?.email)).resolves.toBe('ada@example.com');
    expect(() => getUser()).toThrow(/outside a request scope/);
    // A session read that needs storage: fn runs once it settled, still inside the scope.
    const dbCookie = await signedIn(db);
    const later = new Request(`${ORIGIN}/x`, { headers: { cookie: dbCookie } });
    await expect(db.auth.run(later, () => requireAuth().email)).resolves.toBe('ada@example.com');
    await expect(
      db.auth.run(later, () => {
        throw new Error('later');
      }),
    ).rejects.toThrow('later');
  });

  it("reads the adapter's cookie header in place of request.headers when given", async () => {
    const cookie = await signedIn(jwt);
    const bare = new Request(`${ORIGIN}/x`);
    expect((await jwt.auth.openScope(bare, { cookie })).user?.email).toBe('ada@example.com');
    // null means the adapter knows there is no Cookie header: the request's headers are not consulted.
    const withCookie = new Request(`${ORIGIN}/x`, { headers: { cookie } });
    expect((await jwt.auth.openScope(withCookie, { cookie: null })).user).toBeNull();
    expect((await jwt.auth.getSession(bare, { cookie })).user?.email).toBe('ada@example.com');
  });

  it('builds a request given as a builder only when something reads it, and once', async () => {
    const cookie = await signedIn(jwt);
    let built = 0;
    const source = () => {
      built++;
      return new Request(`${ORIGIN}/x`, { headers: { cookie } });
    };
    // The cookie from info: the session read builds nothing.
    const scope = await jwt.auth.openScope(source, { cookie });
    expect(scope.user?.email).toBe('ada@example.com');
    expect(built).toBe(0);
    expect(new URL(scope.request.url).pathname).toBe('/x');
    expect(scope.request).toBe(scope.request);
    expect(built).toBe(1);
    // Without info.cookie the cookie is read from the built request.
    built = 0;
    await expect(jwt.auth.run(source, () => requireAuth().email)).resolves.toBe('ada@example.com');
    expect(built).toBe(1);
    // No cookie and a plugin reading other credentials: the request is built for it.
    const bearer = await makeFixture('jwt', { plugins: [bearerStubPlugin()] });
    let keyed = 0;
    const withKey = () => {
      keyed++;
      return new Request(`${ORIGIN}/x`, { headers: { authorization: 'Bearer good' } });
    };
    expect((await bearer.auth.openScope(withKey, { cookie: null })).user?.id).toBe('svc');
    expect(keyed).toBe(1);
    // A builder that throws reaches whoever reads the request, as a rejection of the read that needed it.
    const broken = () => {
      throw new Error('unbuildable');
    };
    expect((await jwt.auth.openScope(broken, { cookie })).user?.email).toBe('ada@example.com');
    await expect(jwt.auth.openScope(broken)).rejects.toThrow('unbuildable');
  });

  it('refuses a forged payload carried under a genuine, cached signature', async () => {
    const cookie = (await signedIn(jwt)).split('; ').find((pair) => pair.startsWith('framework.session-token='))!;
    const [name, token] = cookie.split(/=(.*)/s) as [string, string];
    await jwt.auth.openScope(new Request(`${ORIGIN}/x`, { headers: { cookie } }));
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else', role: 'admin' })).toString('base64url');
    const scope = await jwt.auth.openScope(
      new Request(`${ORIGIN}/x`, { headers: { cookie: `${name}=${header}.${forged}.${signature}` } }),
    );
    expect(scope.user).toBeNull();
    // The genuine token still reads from the cache afterwards.
    expect((await jwt.auth.openScope(new Request(`${ORIGIN}/x`, { headers: { cookie } }))).user?.email).toBe(
      'ada@example.com',
    );
  });

  it('rejects, never throws synchronously, when the session read fails', async () => {
    const failing = await makeFixture('jwt', {
      callbacks: {
        session: () => {
          throw new Error('callback failed');
        },
      },
    });
    const cookie = await signedIn(failing);
    let result: unknown;
    expect(() => {
      result = failing.auth.openScope(new Request(`${ORIGIN}/x`, { headers: { cookie } }));
    }).not.toThrow();
    await expect(result).rejects.toThrow('callback failed');
  });

  it('withRequestScope restores the outer scope, and refuses an async function', async () => {
    const outer = await jwt.auth.openScope(new Request(`${ORIGIN}/x`));
    const inner = await jwt.auth.openScope(new Request(`${ORIGIN}/x`, { headers: { cookie: await signedIn(jwt) } }));
    const seen = withRequestScope(outer, () => [getUser(), withRequestScope(inner, () => getUser()?.email), getUser()]);
    expect(seen).toEqual([null, 'ada@example.com', null]);
    expect(() => withRequestScope(inner, async () => getUser())).toThrow(TypeError);
    // A rejected promise from the refused function is handled here, not left to end the process.
    expect(() => withRequestScope(inner, () => Promise.reject(new Error('refused')))).toThrow(TypeError);
    expect(() => withRequestScope(inner, () => requireAuth({ throwError: true }) && Promise.resolve(1))).toThrow(
      /runs fn synchronously/,
    );
    expect(() => getUser()).toThrow(/outside a request scope/);
  });
});
