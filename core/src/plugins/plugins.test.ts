import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createAuth } from '../auth.js';
import { AuthConfigError } from '../errors.js';
import { credentials } from '../providers/credentials.js';
import { createMemoryAdapter } from '../storage/memory.js';
import { passwordAccounts } from '../password-accounts.js';
import { createFixedWindowStorage, createLoginRateLimiter } from '../rate-limit.js';
import { bearerStubPlugin, EMAIL, ORIGIN, PASSWORD, SECRET, TestClient } from '../testing/fixtures.js';
import { passkey } from './passkey/provider.js';
import { signInCounter } from './example/sign-in-counter.js';
import type { AuthPlugin } from '../contract/types.js';

const quiet = { error: () => {}, warn: () => {} };

async function app<const P extends readonly AuthPlugin[]>(plugins: P, extra: Record<string, unknown> = {}) {
  const adapter = createMemoryAdapter();
  const passwords = passwordAccounts(adapter);
  await passwords.register({ email: EMAIL, password: PASSWORD });
  const auth = createAuth({
    secret: SECRET,
    adapter,
    providers: [
      credentials({
        credentials: { email: { label: 'E', type: 'email' }, password: { label: 'P', type: 'password' } },
        authorize: passwords.authorize,
      }),
    ],
    plugins,
    logger: quiet,
    ...extra,
  });
  return { auth, adapter, client: () => new TestClient(auth) };
}

function configError(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(AuthConfigError);
    expect((e as AuthConfigError).code).toBe('INVALID_CONFIG');
    return (e as Error).message;
  }
  throw new Error('expected INVALID_CONFIG');
}

describe('plugins', () => {
  it('serve their routes, with hooks, and a typed extension', async () => {
    const { auth, client } = await app([signInCounter()]);
    expectTypeOf(auth.extensions.signInCounter.count).toEqualTypeOf<(userId: string) => number>();
    const c = client();
    expect((await c.request('/auth/sign-ins', { headers: { accept: 'application/json' } })).status).toBe(401);
    await c.signIn();
    await c.signIn();
    const user = (await c.session())!.user;
    expect(await (await c.request('/auth/sign-ins', { headers: { accept: 'application/json' } })).json()).toEqual({
      count: 2,
    });
    expect(auth.extensions.signInCounter.count(user.id)).toBe(2);
    await auth.run(new Request(`${ORIGIN}/`), (scope) =>
      expect(scope.extensions.signInCounter).toBe(auth.extensions.signInCounter),
    );
  });

  it('their POST routes get the core’s CSRF checks and their own limiter', async () => {
    const login = createLoginRateLimiter(createFixedWindowStorage(), { ipLimit: 2 });
    const { auth, client } = await app([signInCounter()], { rateLimit: { login } });
    const c = client();
    await c.signIn();
    const forged = await auth.handler(
      new Request(`${ORIGIN}/auth/sign-ins/reset`, {
        method: 'POST',
        headers: { cookie: c.cookieHeader(), accept: 'application/json' },
      }),
    );
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ error: { code: 'CSRF_TOKEN_INVALID' } });
    const reset = () =>
      auth.handler(
        new Request(`${ORIGIN}/auth/sign-ins/reset`, {
          method: 'POST',
          headers: { cookie: c.cookieHeader(), accept: 'application/json', 'content-type': 'application/json' },
          body: '{}',
        }),
        { ip: '192.0.2.9' },
      );
    const token = await c.csrf();
    const post = () =>
      auth.handler(
        new Request(`${ORIGIN}/auth/sign-ins/reset`, {
          method: 'POST',
          headers: { cookie: c.cookieHeader(), accept: 'application/json', 'content-type': 'application/json' },
          body: JSON.stringify({ csrfToken: token }),
        }),
        { ip: '192.0.2.9' },
      );
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(200);
    expect((await post()).status).toBe(429);
    expect((await reset()).status).toBe(403);
    // A wrong method gets 405 with the route's own methods.
    const wrong = await c.request('/auth/sign-ins', { method: 'DELETE', headers: { accept: 'application/json' } });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
  });

  it('auth.migrate() runs the adapter’s migrations, then each plugin’s, in order', async () => {
    const order: string[] = [];
    const plugin = (id: string): AuthPlugin => ({ id, migrate: async () => void order.push(id) });
    const { auth, adapter } = await app([plugin('first'), plugin('second')]);
    const migrate = adapter.migrate.bind(adapter);
    adapter.migrate = async () => {
      order.push('adapter');
      await migrate();
    };
    await auth.migrate();
    await auth.migrate();
    expect(order).toEqual(['adapter', 'first', 'second', 'adapter', 'first', 'second']);
  });

  it('a beforeSession hook can answer instead of issuing a session (a second factor, say)', async () => {
    const gate: AuthPlugin<'gate'> = {
      id: 'gate',
      hooks: { beforeSession: (_ctx, { user }) => ({ status: 200, json: { challenge: true, user: user.id } }) },
    };
    const { client } = await app([gate]);
    const c = client();
    const res = await c.signIn();
    expect(await res.json()).toMatchObject({ challenge: true });
    expect(await c.session()).toBeNull();
  });

  it('a resolveSession hook reads requests without a session cookie', async () => {
    const bearer = bearerStubPlugin();
    const { auth } = await app([bearer]);
    expect(
      (await auth.getSession(new Request(`${ORIGIN}/`, { headers: { authorization: 'Bearer good' } }))).user?.id,
    ).toBe('svc');
    expect(
      (await auth.getSession(new Request(`${ORIGIN}/`, { headers: { authorization: 'Bearer bad' } }))).user,
    ).toBeNull();
  });

  it('conflicts throw INVALID_CONFIG at createAuth, naming the parties', async () => {
    const route = { GET: () => ({ status: 200 }) };
    await expect(app([signInCounter(), signInCounter()])).rejects.toThrow(/two plugins have the id "signInCounter"/);
    const taken = (path: string) => app([{ id: 'p', routes: { [path]: route } }]);
    await expect(taken('csrf')).rejects.toThrow(/"csrf" is already served by the core/);
    await expect(taken('signin/anything')).rejects.toThrow(/already served by the core/);
    await expect(taken('passkey/nope/../x')).rejects.toThrow(/must be lower-case segments/);
    await expect(
      app([
        { id: 'a', routes: { shared: route } },
        { id: 'b', routes: { shared: route } },
      ]),
    ).rejects.toThrow(/"shared" is already served by plugin "a"/);
    await expect(app([{ id: 'empty', routes: { nothing: {} } }])).rejects.toThrow(/neither GET nor POST/);
    for (const csrf of ['Token', 'strict', true, 0]) {
      await expect(
        app([{ id: 'typo', routes: { typo: { POST: () => ({ status: 200 }), csrf: csrf as never } } }]),
      ).rejects.toThrow(/has csrf .*use "token", "origin" or "none"/);
    }
    expect(
      configError(() =>
        createAuth({
          secret: SECRET,
          adapter: createMemoryAdapter(),
          providers: [passkey({ rpName: 'a', origin: ORIGIN }), passkey({ id: 'second', rpName: 'b', origin: ORIGIN })],
          logger: quiet,
        }),
      ),
    ).toMatch(/two plugins have the id "passkey"/);
  });

  it('PLUGINS.md shows the example plugin exactly as tested, in under 60 lines', () => {
    const doc = readFileSync(new URL('../../PLUGINS.md', import.meta.url), 'utf8');
    const source = readFileSync(new URL('./example/sign-in-counter.ts', import.meta.url), 'utf8');
    const block = /```ts example-plugin\n([\s\S]*?)```/.exec(doc)?.[1];
    const imports = (text: string) => text.replace(/from '[^']+'/g, "from '…'");
    expect(block && imports(block)).toBe(imports(source));
    expect(source.split('\n').length).toBeLessThan(60);
  });
});
