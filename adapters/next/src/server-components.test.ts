/**
 * The helpers where Next.js gives no Request (Server Components, Server Actions): the session comes from
 * `next/headers`. Next.js's request store only exists inside its server, so `headers()` and `cookies()` are stood
 * in for here by a request's headers and a cookie store that, like Next.js's, may refuse writes (a Server
 * Component); the engine, the session and Next.js's redirect() / forbidden() are real. examples/next runs the same
 * paths under `next build` + a real server.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authFixture, laterSession } from '@framework/testing/conformance';

const incoming = vi.hoisted(() => ({
  headers: new Headers(),
  set: [] as { name: string; value: string; maxAge?: number; httpOnly?: boolean; path?: string }[],
  readOnly: false,
}));

vi.mock('next/headers', () => ({
  headers: async () => incoming.headers,
  cookies: async () => ({
    set(cookie: (typeof incoming.set)[number]) {
      if (incoming.readOnly) throw new Error('Cookies can only be modified in a Server Action or Route Handler.');
      incoming.set.push(cookie);
    },
  }),
}));

const { createAuthHelpers, PATH_HEADER } = await import('./index.js');

beforeEach(() => {
  incoming.headers = new Headers({ host: 'app.test' });
  incoming.set = [];
  incoming.readOnly = false;
});
afterEach(() => vi.unstubAllEnvs());

const digestOf = (error: unknown) => (error as { digest?: string }).digest;

describe('helpers in Server Components and Server Actions', () => {
  it('read the session from the request headers', async () => {
    const { auth, signIn } = await authFixture();
    incoming.headers.set('cookie', await signIn('ada@example.com'));
    const { getSession, requireAuth } = createAuthHelpers(auth);
    expect((await getSession()).user?.email).toBe('ada@example.com');
    expect((await requireAuth()).name).toBe('Ada');
  });

  it('write a refreshed session cookie through cookies().set, attributes kept (a Server Action)', async () => {
    await laterSession({ maxAge: 600 }, 'bob@example.com', 60, async (auth, cookie) => {
      incoming.headers.set('cookie', cookie);
      expect((await createAuthHelpers(auth).getSession()).user?.email).toBe('bob@example.com');
      expect(incoming.set).toMatchObject([{ name: 'framework.session-token', httpOnly: true, path: '/', maxAge: 600 }]);
    });
  });

  it('still read the session where Next.js refuses cookie writes (a Server Component)', async () => {
    await laterSession({ maxAge: 600 }, 'bob@example.com', 60, async (auth, cookie) => {
      incoming.headers.set('cookie', cookie);
      incoming.readOnly = true;
      expect((await createAuthHelpers(auth).getSession()).user?.email).toBe('bob@example.com');
      expect(incoming.set).toEqual([]);
    });
  });

  it('redirect a signed-out visitor back to the path the middleware forwarded', async () => {
    const { auth } = await authFixture();
    incoming.headers.set(PATH_HEADER, '/reports?year=2026');
    const thrown = await createAuthHelpers(auth)
      .requireAuth()
      .catch((error: unknown) => error);
    expect(digestOf(thrown)).toMatch(
      /^NEXT_REDIRECT;replace;\/auth\/signin\?callbackUrl=%2Freports%3Fyear%3D2026;307;/,
    );
  });

  it('answer a missing role or permission with forbidden(), and the kit’s errors with throwError', async () => {
    vi.stubEnv('__NEXT_EXPERIMENTAL_AUTH_INTERRUPTS', 'true');
    const { auth, signIn } = await authFixture({ rbac: true });
    incoming.headers.set('cookie', await signIn('bob@example.com'));
    const { requireRole, requirePermission } = createAuthHelpers(auth);
    expect(digestOf(await requireRole('admin').catch((e: unknown) => e))).toBe('NEXT_HTTP_ERROR_FALLBACK;403');
    expect(digestOf(await requirePermission('users:delete').catch((e: unknown) => e))).toBe(
      'NEXT_HTTP_ERROR_FALLBACK;403',
    );
    await expect(requireRole('admin', { throwError: true })).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
    expect((await requireRole('viewer')).email).toBe('bob@example.com');
  });
});
