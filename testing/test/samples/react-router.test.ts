import { afterAll, describe, expect, it } from 'vitest';
import { createAuth, type StorageAdapter } from '@framework/auth';
import { createAuthHelpers } from '@framework/remix';
import { createMockLoaderArgs, createSignedInSession, createTestContext } from '@framework/testing';
import '@framework/testing/vitest';

// The app under test: normally app/auth.server.ts and a route module of your source tree.
function createApp(adapter: StorageAdapter, origin: string) {
  const auth = createAuth({ baseURL: origin, adapter, providers: [] });
  const { requireUser } = createAuthHelpers(auth);
  const loader = async ({ request, params }: { request: Request; params: { id?: string } }) => {
    const user = await requireUser(request);
    return { project: params.id, owner: user.email };
  };
  return { auth, loader };
}

describe('the project route of my React Router app', async () => {
  let loader!: ReturnType<typeof createApp>['loader'];
  const ctx = await createTestContext({
    createApp: (db, { origin }) => {
      const built = createApp(db.adapter, origin);
      loader = built.loader;
      return built.auth; // the kit's routes, for ctx.fetch
    },
  });
  afterAll(() => ctx.cleanup());

  it('sends signed-out visitors to the sign-in page', async () => {
    const args = createMockLoaderArgs({ request: `${ctx.origin}/projects/7`, params: { id: '7' } });
    const thrown = await loader(args).catch((response: unknown) => response);
    expect(thrown).toRedirectTo('/auth/signin?callbackUrl=%2Fprojects%2F7');
  });

  it('serves a signed-in user (created on the fly, a real session in the request)', async () => {
    const { cookieHeader } = await createSignedInSession(
      { auth: ctx.auth!, baseURL: ctx.origin },
      { as: 'ada@example.com' },
    );
    const request = new Request(`${ctx.origin}/projects/7`, { headers: { cookie: cookieHeader } });
    const data = await loader(createMockLoaderArgs({ request, params: { id: '7' } }));
    expect(data).toEqual({ project: '7', owner: 'ada@example.com' });
  });
});
