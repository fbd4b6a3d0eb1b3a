import { describe, expect, it, vi } from 'vitest';
import { createAuth } from '../auth.js';
import { AuthConfigError } from '../errors.js';
import { defineRBAC } from '../rbac/define.js';
import type { AuthScope } from '../scope.js';
import type { User } from '../types.js';
import { authMiddleware, middleware } from './auth-middleware.js';
import type { AuthMiddlewareContext, AuthMiddlewareOptions } from './types.js';

const rbac = defineRBAC({
  roles: [
    { id: 'admin', name: 'Admin', permissions: ['*'] },
    { id: 'editor', name: 'Editor', permissions: ['posts:edit'] },
    { id: 'viewer', name: 'Viewer', permissions: ['posts:read'] },
  ],
  hierarchy: { editor: ['viewer'] },
});
const editor: User = { id: 'u1', email: 'ed@example.com', role: 'editor' };
const viewer: User = { id: 'u2', role: 'viewer' };

const JSON_HEADERS = { accept: 'application/json' };
const BROWSER_HEADERS = { accept: 'text/html' };
const get = (path: string, headers: Record<string, string> = {}) => new Request(`http://localhost${path}`, { headers });
/** The spec's createMockContext shape, plus role definitions. */
const mockContext = (user: User | null, extra: Partial<AuthMiddlewareContext> = { rbac }): AuthMiddlewareContext => ({
  env: {},
  auth: { getUser: async () => user },
  ...extra,
});

/** Runs the middleware; `next` answers 200 "next" and records that it ran. */
async function call(options: AuthMiddlewareOptions | undefined, request: Request, context?: AuthMiddlewareContext) {
  const downstream = new Response('next', { status: 200 });
  const next = vi.fn(async () => downstream);
  const response = await authMiddleware(options)(request, next, context);
  return { response, next, passed: response === downstream && next.mock.calls.length === 1 };
}

describe('authMiddleware: options are checked at creation', () => {
  it.each<[unknown, RegExp]>([
    ['admin', /expected an object/],
    [{ rol: 'admin' }, /unknown option "rol"/],
    [{ required: 'yes' }, /required must be a boolean/],
    [{ role: '' }, /role must be a non-empty string/],
    [{ roles: [] }, /roles must be a non-empty array/],
    [{ roles: ['a', 1] }, /roles must be a non-empty array/],
    [{ permission: 'posts' }, /permission has a malformed permission "posts"/],
    [{ permissions: [] }, /permissions must be a non-empty array/],
    [{ permissions: ['posts:read', 'x:'] }, /malformed permission "x:"/],
    [{ authorize: true }, /authorize must be a function/],
    [{ unauthenticatedRedirect: '//evil.example' }, /unauthenticatedRedirect must be a path/],
    [{ unauthorizedRedirect: 'javascript:alert(1)' }, /unauthorizedRedirect must be a path/],
    [{ unauthorizedRedirect: '/\\evil.example' }, /unauthorizedRedirect must be a path/],
    [{ rbac: {} }, /rbac must be the result of defineRBAC/],
    [{ rbac, role: 'admn' }, /role names an unknown role "admn"/],
  ])('%j is rejected', (options, message) => {
    expect(() => authMiddleware(options as AuthMiddlewareOptions)).toThrow(AuthConfigError);
    expect(() => authMiddleware(options as AuthMiddlewareOptions)).toThrow(message);
  });

  it('accepts paths and absolute http(s) URLs as redirects, and no options at all', () => {
    expect(() =>
      authMiddleware({ unauthenticatedRedirect: '/login?x=1', unauthorizedRedirect: 'https://example.com/denied' }),
    ).not.toThrow();
    expect(() => authMiddleware()).not.toThrow();
  });

  it('is exported as middleware too', () => {
    expect(middleware).toBe(authMiddleware);
  });
});

describe('authMiddleware: unauthenticated', () => {
  it('answers API clients 401 with a JSON error body, without calling next', async () => {
    const { response, next } = await call(undefined, get('/api/posts', JSON_HEADERS), mockContext(null));
    expect(next).not.toHaveBeenCalled();
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toStrictEqual({
      error: { code: 'UNAUTHENTICATED', message: 'Authentication required' },
    });
  });

  it('redirects browsers to the sign-in page with callbackUrl (302 for GET, 303 for POST)', async () => {
    const { response } = await call({}, get('/admin/users?page=2', BROWSER_HEADERS), mockContext(null));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/auth/signin?callbackUrl=%2Fadmin%2Fusers%3Fpage%3D2');
    const post = await call(
      {},
      new Request('http://localhost/admin', { method: 'POST', headers: BROWSER_HEADERS }),
      mockContext(null),
    );
    expect(post.response.status).toBe(303);
  });

  it('redirects browsers to unauthenticatedRedirect when given, as given', async () => {
    const { response } = await call(
      { unauthenticatedRedirect: '/login' },
      get('/admin', BROWSER_HEADERS),
      mockContext(null),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/login');
    const api = await call({ unauthenticatedRedirect: '/login' }, get('/admin', JSON_HEADERS), mockContext(null));
    expect(api.response.status).toBe(401);
  });

  it('required: false lets anonymous requests through', async () => {
    const { passed } = await call({ required: false, role: 'admin' }, get('/feed'), mockContext(null));
    expect(passed).toBe(true);
  });

  it('required: false still checks a present user', async () => {
    const { response, next } = await call(
      { required: false, role: 'admin' },
      get('/feed', JSON_HEADERS),
      mockContext(viewer),
    );
    expect(next).not.toHaveBeenCalled();
    expect(response.status).toBe(403);
  });
});

describe('authMiddleware: authorization', () => {
  it("passes a user holding the role (directly or inherited) and returns next()'s response untouched", async () => {
    expect((await call({ role: 'editor' }, get('/e'), mockContext(editor))).passed).toBe(true);
    expect((await call({ role: 'viewer' }, get('/v'), mockContext(editor))).passed).toBe(true);
    expect((await call(undefined, get('/any'), mockContext(viewer))).passed).toBe(true);
  });

  it('answers API clients 403 FORBIDDEN with the requirement in the message', async () => {
    const { response, next } = await call({ role: 'admin' }, get('/admin', JSON_HEADERS), mockContext(editor));
    expect(next).not.toHaveBeenCalled();
    expect(response.status).toBe(403);
    expect(await response.json()).toStrictEqual({ error: { code: 'FORBIDDEN', message: 'Requires the role "admin"' } });
  });

  it('answers browsers a 403 HTML page, or the unauthorizedRedirect', async () => {
    const page = await call({ role: 'admin' }, get('/admin', BROWSER_HEADERS), mockContext(editor));
    expect(page.response.status).toBe(403);
    expect(page.response.headers.get('content-type')).toMatch(/text\/html/);
    expect(await page.response.text()).toContain('Requires the role &quot;admin&quot;');
    const redirected = await call(
      { role: 'admin', unauthorizedRedirect: '/denied' },
      get('/admin', BROWSER_HEADERS),
      mockContext(editor),
    );
    expect(redirected.response.status).toBe(302);
    expect(redirected.response.headers.get('location')).toBe('/denied');
    const api = await call(
      { role: 'admin', unauthorizedRedirect: '/denied' },
      get('/admin', JSON_HEADERS),
      mockContext(editor),
    );
    expect(api.response.status).toBe(403);
  });

  it('speaks the language Accept-Language asks for on the 403 page', async () => {
    const german = await call(
      { role: 'admin' },
      get('/admin', { ...BROWSER_HEADERS, 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' }),
      mockContext(editor),
    );
    expect(german.response.status).toBe(403);
    expect(german.response.headers.get('content-language')).toBe('de');
    expect(german.response.headers.get('vary')).toBe('Accept-Language');
    const html = await german.response.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('<h1>Sie haben keinen Zugriff</h1>');
    expect(html).toContain('>Zur Startseite</a>');
    expect(html).not.toContain('Requires the role');
    const english = await call({ role: 'admin' }, get('/admin', BROWSER_HEADERS), mockContext(editor));
    expect(english.response.headers.get('content-language')).toBe('en');
    expect(await english.response.text()).toContain('<html lang="en">');
  });

  it('roles and permissions mean any of them', async () => {
    expect((await call({ roles: ['admin', 'editor'] }, get('/x'), mockContext(editor))).passed).toBe(true);
    expect((await call({ roles: ['admin'] }, get('/x'), mockContext(editor))).response.status).toBe(403);
    expect((await call({ permissions: ['users:delete', 'posts:read'] }, get('/x'), mockContext(viewer))).passed).toBe(
      true,
    );
    const denied = await call(
      { permissions: ['users:delete', 'posts:edit'] },
      get('/x', JSON_HEADERS),
      mockContext(viewer),
    );
    expect(await denied.response.json()).toMatchObject({
      error: { message: 'Requires the permission "users:delete" or "posts:edit"' },
    });
  });

  it("permission checks the user's permission set", async () => {
    expect((await call({ permission: 'posts:edit' }, get('/x'), mockContext(editor))).passed).toBe(true);
    expect((await call({ permission: 'posts:edit' }, get('/x'), mockContext(viewer))).response.status).toBe(403);
  });

  it('every option given must pass', async () => {
    const both = { role: 'viewer', permission: 'posts:edit' };
    expect((await call(both, get('/x'), mockContext(editor))).passed).toBe(true);
    expect((await call(both, get('/x'), mockContext(viewer))).response.status).toBe(403);
    const authorize = vi.fn(() => false);
    expect((await call({ role: 'viewer', authorize }, get('/x'), mockContext(editor))).response.status).toBe(403);
  });

  it('authorize(user, request) runs after the role checks; only true allows', async () => {
    const authorize = vi.fn(
      async (user: User, request: Request) => user.id === 'u1' && new URL(request.url).pathname === '/mine',
    );
    const request = get('/mine');
    expect((await call({ authorize }, request, mockContext(editor))).passed).toBe(true);
    expect(authorize).toHaveBeenCalledWith(editor, request);
    expect((await call({ authorize }, get('/mine'), mockContext(viewer))).response.status).toBe(403);
    const truthy = (() => 'yes') as unknown as () => boolean;
    expect((await call({ authorize: truthy }, get('/x'), mockContext(editor))).response.status).toBe(403);
    const skipped = vi.fn(() => true);
    await call({ role: 'admin', authorize: skipped }, get('/x'), mockContext(editor));
    expect(skipped).not.toHaveBeenCalled();
    const thrown = call({ authorize: () => Promise.reject(new Error('db down')) }, get('/x'), mockContext(editor));
    await expect(thrown).rejects.toThrow('db down');
  });

  it('role definitions: context.rbac, else options.rbac; a role option without any is a clear error', async () => {
    const other = defineRBAC({
      roles: [
        { id: 'admin', name: 'A', permissions: [] },
        { id: 'editor', name: 'E', permissions: [] },
      ],
    });
    expect((await call({ role: 'editor', rbac: other }, get('/x'), mockContext(editor, {}))).passed).toBe(true);
    expect(
      (await call({ permission: 'posts:edit', rbac: other }, get('/x'), mockContext(editor, {}))).response.status,
    ).toBe(403);
    expect(
      (await call({ permission: 'posts:edit', rbac: other }, get('/x'), mockContext(editor, { rbac }))).passed,
    ).toBe(true);
    await expect(call({ role: 'admin' }, get('/x'), mockContext(editor, {}))).rejects.toThrow(
      /authMiddleware\(\) needs role definitions/,
    );
    expect((await call({ authorize: () => true }, get('/x'), mockContext(editor, {}))).passed).toBe(true);
  });

  it('without a context or a request scope it explains what is missing', async () => {
    await expect(call({}, get('/x'))).rejects.toThrow(/authMiddleware\(\) found no user/);
    await expect(call({}, get('/x'), { env: {} })).rejects.toThrow(/found no user/);
  });

  it('accepts a synchronous getUser', async () => {
    expect((await call({}, get('/x'), { auth: { getUser: () => viewer } })).passed).toBe(true);
  });
});

describe('authMiddleware inside a request scope (auth.run)', () => {
  const auth = createAuth({
    session: { strategy: 'jwt' },
    secret: 'a-test-secret-of-at-least-32-characters!',
    providers: [],
    pages: { signIn: '/login?theme=dark' },
  });
  /** Opens a real scope; the user (and the expired flag) are placed on it directly. */
  const inScope = (request: Request, user: User | null, fn: () => Promise<Response>, expired = false) =>
    auth.run(request, (scope: AuthScope) => {
      scope.user = user;
      scope.expired = expired;
      scope.extensions.rbac ??= rbac;
      return fn();
    });

  it('reads the user and rbac from the scope', async () => {
    const guard = authMiddleware({ role: 'editor' });
    const request = get('/edit', JSON_HEADERS);
    const ok = await inScope(request, editor, () => guard(request, async () => new Response('edited')));
    expect(await ok.text()).toBe('edited');
    const denied = await inScope(request, viewer, () => guard(request, async () => new Response('edited')));
    expect(denied.status).toBe(403);
  });

  it('uses the configured sign-in page, appending callbackUrl to its query', async () => {
    const request = get('/edit?draft=1', BROWSER_HEADERS);
    const response = await inScope(request, null, () => authMiddleware()(request, async () => new Response('x')));
    expect(response.headers.get('location')).toBe('/login?theme=dark&callbackUrl=%2Fedit%3Fdraft%3D1');
  });

  it('tells API clients SESSION_EXPIRED when the session cookie had expired', async () => {
    const request = get('/edit', JSON_HEADERS);
    const response = await inScope(request, null, () => authMiddleware()(request, async () => new Response('x')), true);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: 'SESSION_EXPIRED' } });
  });

  it('a context user wins over the scope user', async () => {
    const request = get('/edit', JSON_HEADERS);
    const guard = authMiddleware({ role: 'editor' });
    const response = await inScope(request, null, () =>
      guard(request, async () => new Response('ok'), { auth: { getUser: async () => editor } }),
    );
    expect(response.status).toBe(200);
  });
});

describe('authMiddleware: a request given as a builder', () => {
  it('is built only to answer a refusal or for authorize, never for a request that passes', async () => {
    let built = 0;
    const source = (headers: Record<string, string>) => () => {
      built++;
      return get('/r?x=1', headers);
    };
    const next = async () => new Response('next');
    expect((await authMiddleware({ role: 'editor' })(source({}), next, mockContext(editor))).status).toBe(200);
    expect(built).toBe(0);
    const refused = await authMiddleware()(source(BROWSER_HEADERS), next, mockContext(null));
    expect([refused.status, refused.headers.get('location')]).toEqual([302, '/auth/signin?callbackUrl=%2Fr%3Fx%3D1']);
    expect(built).toBe(1);
    const forbidden = await authMiddleware({ role: 'admin' })(source(JSON_HEADERS), next, mockContext(editor));
    expect(forbidden.status).toBe(403);
    expect(built).toBe(2);
    const seen: string[] = [];
    const check = authMiddleware({ authorize: (_user, request) => (seen.push(request.url), true) });
    expect((await check(source({}), next, mockContext(editor))).status).toBe(200);
    expect([built, seen]).toEqual([3, ['http://localhost/r?x=1']]);
  });
});

describe('authMiddleware: a user read synchronously', () => {
  const scopeOf = (user: User | null) => ({ user, expired: false, config: { pages: {} } }) as unknown as AuthScope;

  it('calls next in the same tick when the scope holds a user who passes the role checks', async () => {
    const next = vi.fn(() => new Response('next'));
    const answer = authMiddleware({ role: 'viewer' })(get('/r'), next, { env: {}, rbac, scope: scopeOf(editor) });
    expect(next).toHaveBeenCalledTimes(1);
    expect(await (await answer).text()).toBe('next');
  });

  it('still waits for an async authorize and for a context getUser', async () => {
    const next = vi.fn(() => new Response('next'));
    const viaAuthorize = authMiddleware({ authorize: async () => true })(get('/r'), next, {
      env: {},
      scope: scopeOf(editor),
    });
    const viaGetUser = authMiddleware()(get('/r'), next, mockContext(editor));
    expect(next).not.toHaveBeenCalled();
    expect((await viaAuthorize).status).toBe(200);
    expect((await viaGetUser).status).toBe(200);
    expect(next).toHaveBeenCalledTimes(2);
  });

  it('answers a synchronous throw as a rejection, as before', async () => {
    const failing = authMiddleware({
      authorize: () => {
        throw new Error('authorize failed');
      },
    })(get('/r'), () => new Response('next'), { env: {}, scope: scopeOf(editor) });
    await expect(failing).rejects.toThrow('authorize failed');
  });
});
