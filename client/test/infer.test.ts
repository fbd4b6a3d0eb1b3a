/**
 * The session user's type, inferred from the server's `typeof auth`, flows
 * through `createAuthStore`, `createAuthClient` and every framework binding.
 * The `expectTypeOf` checks fail the repository's typecheck
 * (`tsc -p tsconfig.json`); the functions holding hook calls are only type
 * checked, never run (hooks need a component).
 */
import { describe, expectTypeOf, it, expect } from 'vitest';
import { createAuth, credentials, createMemoryAdapter, type Auth, type User } from '@framework/auth';
import { createAuthClient, createAuthStore, type AuthState, type ClientUser, type SessionUser } from '../src/index.js';
import { useSession as useReact } from '../src/react.js';
import { useSession as usePreact } from '../src/preact.js';
import { useSession as useVue } from '../src/vue.js';
import { useSession as useSolid } from '../src/solid.js';
import { useSession as useSvelte } from '../src/svelte.js';

// Only `typeof auth` is read below, as an app's client code does.
// eslint-disable-next-line @typescript-eslint/no-unused-vars
const auth = createAuth({
  session: { strategy: 'database' },
  adapter: createMemoryAdapter(),
  providers: [credentials({ credentials: { email: { label: 'Email', type: 'email' } }, authorize: async () => null })],
});

/** A server whose session type carries app fields (what a typed `callbacks.session` gives). */
type PlanUser = User & { plan: 'free' | 'pro'; signedUpAt: Date };
type PlanAuth = Auth & { getSession(request: Request): Promise<{ user: PlanUser | null }> };

describe('the user type from the server', () => {
  it('reads the user from typeof auth, in JSON form (Date → ISO string)', () => {
    type Me = SessionUser<typeof auth>;
    expectTypeOf<Me['id']>().toEqualTypeOf<string>();
    expectTypeOf<Me['email']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Me['emailVerified']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Me['roles']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<Me>().not.toHaveProperty('plan');
  });

  it('carries custom fields of the server user, and takes a plain user type as is', () => {
    expectTypeOf<SessionUser<PlanAuth>['plan']>().toEqualTypeOf<'free' | 'pro'>();
    expectTypeOf<SessionUser<PlanAuth>['signedUpAt']>().toEqualTypeOf<string>();
    expectTypeOf<SessionUser<{ id: string; team: string }>>().toEqualTypeOf<{ id: string; team: string }>();
  });

  it('keeps ClientUser without a type argument (backwards compatible)', () => {
    expectTypeOf<SessionUser>().toEqualTypeOf<ClientUser>();
    expectTypeOf<SessionUser<unknown>>().toEqualTypeOf<ClientUser>();
    expectTypeOf(createAuthStore<unknown>().getState()).toEqualTypeOf<AuthState>();
    expectTypeOf(createAuthStore().getState()).toEqualTypeOf<AuthState>();
    expectTypeOf(createAuthStore().getState()).toEqualTypeOf<AuthState<ClientUser>>();
  });

  it('types createAuthStore and createAuthClient, which still work at run time', async () => {
    const answer = {
      user: { id: 'u1', email: 'a@example.com', plan: 'pro', signedUpAt: '2026-01-01T00:00:00.000Z' },
      expires: '2026-02-01T00:00:00.000Z',
    };
    const fetcher: typeof fetch = async () => Response.json(answer);
    const store = createAuthStore<PlanAuth>({ fetch: fetcher, baseUrl: 'http://app.test' });
    expectTypeOf(store.getState()).toEqualTypeOf<AuthState<SessionUser<PlanAuth>>>();
    const stop = store.subscribe(() => {});
    await store.refresh();
    const state = store.getState();
    expect(state.status).toBe('authenticated');
    if (state.status === 'authenticated') {
      expectTypeOf(state.user.plan).toEqualTypeOf<'free' | 'pro'>();
      expect(state.user.plan).toBe('pro');
    }
    stop();
    const client = createAuthClient<PlanAuth>({ fetch: fetcher, baseUrl: 'http://app.test' });
    const session = await client.getSession();
    expectTypeOf(session?.user.signedUpAt).toEqualTypeOf<string | undefined>();
    expect(session?.user.signedUpAt).toBe(answer.user.signedUpAt);
  });

  it('flows into every binding: useSession<typeof auth>() and useSession(store)', () => {
    type Plan = AuthState<SessionUser<PlanAuth>>;
    function typesOnly() {
      expectTypeOf(useReact<PlanAuth>()).toEqualTypeOf<Plan>();
      expectTypeOf(usePreact<PlanAuth>()).toEqualTypeOf<Plan>();
      expectTypeOf(useVue<PlanAuth>().value.status).toEqualTypeOf<Plan['status']>();
      expectTypeOf(useSolid<PlanAuth>()()).toEqualTypeOf<Plan>();
      expectTypeOf(useReact<typeof auth>()).toEqualTypeOf<AuthState<SessionUser<typeof auth>>>();
      expectTypeOf(useReact()).toEqualTypeOf<AuthState>();
      const store = createAuthStore<PlanAuth>();
      expectTypeOf(useReact(store)).toEqualTypeOf<Plan>();
      expectTypeOf(useSolid(store)()).toEqualTypeOf<Plan>();
      const vue = useVue(store).value;
      if (vue.status === 'authenticated') expectTypeOf(vue.user.plan).toEqualTypeOf<'free' | 'pro'>();
    }
    expect(typeof typesOnly).toBe('function');
    const svelte = useSvelte(
      createAuthStore<PlanAuth>({ fetch: async () => Response.json(null), baseUrl: 'http://app.test' }),
    );
    let seen: Plan | undefined;
    svelte.subscribe((value) => {
      seen = value;
      expectTypeOf(value).toEqualTypeOf<Plan>();
    })();
    expect(seen?.status).toBe('loading');
  });
});
