import { describe, expect, it, vi } from 'vitest';
import { getUser, type Auth, type RequestInfo } from '@framework/auth';
import { authHandle, forwardCookies } from './index.js';
import type { AuthLocals } from './locals.js';
import { authFixture, laterSession } from '@framework/testing/conformance';
import { fakeEvent, runHandle } from './kit-fake.js';

const whoami = (event: { locals: unknown }) => {
  const locals = event.locals as AuthLocals;
  return Response.json({ local: locals.user?.email ?? null, helper: getUser()?.email ?? null });
};

describe('authHandle: auth routes', () => {
  it('answers every method under basePath with auth.handler and the client address', async () => {
    const { auth } = await authFixture();
    const handler = vi.fn(auth.handler);
    const handle = authHandle({ ...auth, handler } as Auth, { building: false });
    const route = vi.fn(() => new Response('app'));
    const providers = await runHandle(handle, fakeEvent('/auth/providers'), route);
    expect(providers.status).toBe(200);
    expect(await providers.json()).toHaveProperty('credentials');
    expect(handler).toHaveBeenLastCalledWith(expect.any(Request), { ip: '203.0.113.9' });
    expect((await runHandle(handle, fakeEvent('/auth/csrf', { method: 'PUT' }), route)).status).toBe(405);
    expect((await runHandle(handle, fakeEvent('/auth'), route)).status).toBe(404);
    expect(route).not.toHaveBeenCalled();
    expect(await (await runHandle(handle, fakeEvent('/authors'), route)).text()).toBe('app');
  });

  it('passes no ip when the adapter cannot tell the client address', async () => {
    const { auth } = await authFixture();
    const handler = vi.fn(auth.handler);
    const handle = authHandle({ ...auth, handler } as Auth, { building: false });
    const noAddress = () => {
      throw new Error('not supported');
    };
    await runHandle(handle, fakeEvent('/auth/providers', {}, { getClientAddress: noAddress }), () => new Response());
    expect(handler).toHaveBeenLastCalledWith(expect.any(Request), {});
  });

  it('resolves a lazy engine once, and skips everything while building', async () => {
    const { auth } = await authFixture();
    const source = vi.fn(async () => auth);
    const handle = authHandle(source, { building: false });
    await runHandle(handle, fakeEvent('/auth/providers'), () => new Response());
    await runHandle(handle, fakeEvent('/'), () => new Response());
    expect(source).toHaveBeenCalledTimes(1);
    const never = vi.fn(async () => auth);
    const route = vi.fn(() => new Response('prerendered'));
    expect(
      await (await runHandle(authHandle(never, { building: true }), fakeEvent('/auth/providers'), route)).text(),
    ).toBe('prerendered');
    expect(never).not.toHaveBeenCalled();
  });

  it('requires `building`, and a request for the prerender host does not switch the hook off', async () => {
    const { auth } = await authFixture();
    expect(() => authHandle(auth, {} as { building: boolean })).toThrow(TypeError);
    expect(() => (authHandle as (a: unknown) => unknown)(auth)).toThrow(TypeError);
    const forged = fakeEvent('/', {}, {});
    const url = new URL('http://sveltekit-prerender/');
    Object.assign(forged, { url, request: new Request(url) });
    const res = await runHandle(
      authHandle(auth, { building: false }),
      forged,
      (event) => new Response(typeof (event.locals as { auth?: unknown }).auth),
    );
    expect(await res.text()).toBe('function');
  });
});

describe('authHandle: the session of every request', () => {
  it('by default sets locals before resolve and enters no request scope', async () => {
    const { auth, signIn } = await authFixture();
    const run = vi.spyOn(auth, 'run');
    const handle = authHandle(auth, { building: false });
    const cookie = await signIn('ada@example.com');
    const res = await runHandle(handle, fakeEvent('/', { headers: { cookie } }), async (event) => {
      const locals = event.locals as AuthLocals;
      // The global helpers of @framework/auth need { scope: true }: their Error names it.
      expect(() => getUser()).toThrow(/authHandle\(auth, \{ building, scope: true \}\)/);
      expect((await locals.auth()).user?.email).toBe('ada@example.com');
      return Response.json({ local: locals.user?.email, session: locals.session?.user.email });
    });
    expect(await res.json()).toEqual({ local: 'ada@example.com', session: 'ada@example.com' });
    expect(run).not.toHaveBeenCalled();
  });

  it('asks SvelteKit for the client address only when the session read uses it, and once', async () => {
    const { auth, signIn } = await authFixture();
    const cookie = await signIn('ada@example.com');
    const infos: RequestInfo[] = [];
    const openScope = auth.openScope.bind(auth);
    vi.spyOn(auth, 'openScope').mockImplementation((request, info) => {
      if (info) infos.push(info);
      return openScope(request, info);
    });
    for (const options of [{ building: false }, { building: false, lazy: true }]) {
      const getClientAddress = vi.fn(() => '203.0.113.7');
      const handle = authHandle(auth, options);
      const event = fakeEvent('/', { headers: { cookie } }, { getClientAddress });
      const res = await runHandle(handle, event, async (e) => {
        await (e.locals as AuthLocals).auth();
        return new Response('ok');
      });
      expect(res.status).toBe(200);
      expect(getClientAddress).not.toHaveBeenCalled();
      const info = infos.at(-1)!;
      expect([info.ip, info.ip]).toEqual(['203.0.113.7', '203.0.113.7']);
      expect(getClientAddress).toHaveBeenCalledTimes(1);
    }
    const unknown = authHandle(auth, { building: false });
    const noAddress = () => {
      throw new Error('not supported');
    };
    await runHandle(
      unknown,
      fakeEvent('/', { headers: { cookie } }, { getClientAddress: noAddress }),
      () => new Response(),
    );
    expect(infos.at(-1)!.ip).toBeUndefined();
  });

  it('with {scope: true} sets locals and the request scope, signed out and signed in', async () => {
    const { auth, signIn } = await authFixture();
    const handle = authHandle(auth, { building: false, scope: true });
    expect(await (await runHandle(handle, fakeEvent('/'), whoami)).json()).toEqual({ local: null, helper: null });
    const cookie = await signIn('ada@example.com');
    const res = await runHandle(handle, fakeEvent('/', { headers: { cookie } }), async (event) => {
      const state = await (event.locals as AuthLocals).auth();
      expect(state.session?.user.email).toBe('ada@example.com');
      return whoami(event);
    });
    expect(await res.json()).toEqual({ local: 'ada@example.com', helper: 'ada@example.com' });
  });

  it("serves a request made inside another request's scope in its own scope", async () => {
    const { auth, signIn } = await authFixture();
    const outer = authHandle(auth, { building: false, scope: true });
    const inner = authHandle(auth, { building: false });
    const cookie = await signIn('ada@example.com');
    // event.fetch from a load function of a signed-in request, to a route of the same app, without the cookie.
    const res = await runHandle(outer, fakeEvent('/', { headers: { cookie } }), () =>
      runHandle(inner, fakeEvent('/api'), whoami),
    );
    expect(await res.json()).toEqual({ local: null, helper: null });
  });

  it('refuses scope: true with lazy: true at set-up', async () => {
    const { auth } = await authFixture();
    expect(() => authHandle(auth, { building: false, scope: true, lazy: true })).toThrow(TypeError);
  });

  it('with {lazy: true} reads the session only when asked, and opens no scope', async () => {
    const { auth, signIn } = await authFixture();
    const run = vi.spyOn(auth, 'run');
    const open = vi.spyOn(auth, 'openScope');
    const handle = authHandle(auth, { building: false, lazy: true });
    await runHandle(handle, fakeEvent('/'), () => new Response('static'));
    expect(open).not.toHaveBeenCalled();
    const cookie = await signIn('bob@example.com');
    const res = await runHandle(handle, fakeEvent('/', { headers: { cookie } }), async (event) => {
      const locals = event.locals as AuthLocals;
      expect(() => locals.user).toThrow(/before `await event.locals.auth\(\)`/);
      expect(() => getUser()).toThrow(/outside a request scope/);
      await Promise.all([locals.auth(), locals.auth()]);
      return Response.json({ user: locals.user?.email, session: locals.session?.user.email });
    });
    expect(await res.json()).toEqual({ user: 'bob@example.com', session: 'bob@example.com' });
    // One read for both calls, through openScope: no AsyncLocalStorage scope (Node 20's promise hooks stay off).
    expect(open).toHaveBeenCalledTimes(1);
    expect(run).not.toHaveBeenCalled();
  });

  it('answers a route that adds no cookie with its own response', async () => {
    const { auth, signIn } = await authFixture();
    const cookie = await signIn('ada@example.com');
    const own = new Response('ok');
    const res = await runHandle(
      authHandle(auth, { building: false }),
      fakeEvent('/', { headers: { cookie } }),
      () => own,
    );
    expect(res).toBe(own);
    expect(res.headers.has('set-cookie')).toBe(false);
  });

  it.each([{ scope: true }, {}, { lazy: true }])(
    'forwards the cleared cookie of an expired session (%o)',
    async (mode) => {
      await laterSession({ maxAge: 60 }, 'ada@example.com', 120, async (auth, cookie) => {
        const res = await runHandle(
          authHandle(auth, { building: false, ...mode }),
          fakeEvent('/', { headers: { cookie } }),
          async (event) => {
            await (event.locals as AuthLocals).auth();
            return new Response('ok');
          },
        );
        expect(res.headers.get('set-cookie')).toMatch(/framework\.session-token=;.*Max-Age=0/);
      });
    },
  );

  it('appends cookies queued with forwardCookies, also onto immutable responses', async () => {
    const { auth } = await authFixture();
    const handle = authHandle(auth, { building: false });
    const res = await runHandle(handle, fakeEvent('/register'), async (event) => {
      const { headers } = await auth.csrf.issue(event.request);
      forwardCookies(event, headers);
      return Response.redirect('http://app.test/next', 302);
    });
    expect(res.status).toBe(302);
    expect(res.headers.getSetCookie().join('\n')).toMatch(/csrf/i);
  });

  it('forwardCookies outside authHandle says what is missing', () => {
    expect(() => forwardCookies(fakeEvent('/'), new Headers())).toThrow(/authHandle\(auth\) in src\/hooks\.server\.ts/);
  });
});

describe('authHandle: request bodies', () => {
  it('drains a body the auth routes refused unread (413 from Content-Length)', async () => {
    const { auth } = await authFixture();
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 3) controller.close();
        else controller.enqueue(new Uint8Array(1024));
      },
    });
    const init = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '999999' },
      body,
      duplex: 'half',
    } as RequestInit;
    const event = fakeEvent('/auth/callback/credentials', init);
    const res = await runHandle(authHandle(auth, { building: false }), event, () => new Response());
    expect(res.status).toBe(413);
    await vi.waitFor(() => expect(pulled).toBeGreaterThan(3));
    expect(event.request.bodyUsed).toBe(true);
  });
});
