/**
 * Custom user fields (`createAuth({ user: { additionalFields } })`) and the fields `callbacks.session` adds reach
 * the browser typed from `typeof auth`: `createAuthClient`, the store and `useSession`, with the values the real
 * engine answers (dates as ISO strings).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createAuth, createMemoryAdapter } from '@framework/auth';
import { createAuthClient, type AuthState, type SessionUser } from '../src/index.js';
import { useSession } from '../src/react.js';

async function signedIn() {
  const auth = createAuth({
    session: { strategy: 'database' },
    adapter: createMemoryAdapter(),
    providers: [],
    user: {
      additionalFields: {
        plan: { type: 'string', defaultValue: 'free', input: false },
        seats: { type: 'number' },
        trialEndsAt: { type: 'date' },
      },
    },
    callbacks: {
      session: ({ session, user }) => ({ ...session, user: { ...session.user, paid: user.plan !== 'free' } }),
    },
  });
  const user = await auth.adapter!.createUser({
    email: 'ada@example.com',
    trialEndsAt: new Date(Date.UTC(2030, 0, 31)),
  } as never);
  const { value } = await auth.createSession(user.id);
  const cookie = `${auth.config.cookies.sessionToken.name}=${value}`;
  const fetcher: typeof fetch = (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('cookie', cookie);
    return auth.handler(new Request(new URL(String(input), 'http://app.test'), { ...init, headers }));
  };
  return { auth, fetcher };
}

describe('custom user fields on the client', () => {
  it('createAuthClient<typeof auth>().getSession() types and returns them', async () => {
    const { auth, fetcher } = await signedIn();
    expect(auth.adapter).toBeDefined();
    const client = createAuthClient<typeof auth>({ fetch: fetcher, baseUrl: 'http://app.test' });
    const session = await client.getSession();
    expect(session?.user).toMatchObject({
      plan: 'free',
      seats: null,
      trialEndsAt: '2030-01-31T00:00:00.000Z',
      paid: false,
    });
    expectTypeOf(session!.user.plan).toEqualTypeOf<string>();
    expectTypeOf(session!.user.seats).toEqualTypeOf<number | null>();
    expectTypeOf(session!.user.trialEndsAt).toEqualTypeOf<string | null>();
    expectTypeOf(session!.user.paid).toEqualTypeOf<boolean>();
  });

  it('types useSession<typeof auth>() and the store alike', async () => {
    const { auth } = await signedIn();
    expect(auth.adapter).toBeDefined();
    type Me = SessionUser<typeof auth>;
    expectTypeOf<Me['plan']>().toEqualTypeOf<string>();
    function typesOnly() {
      expectTypeOf(useSession<typeof auth>()).toEqualTypeOf<AuthState<Me>>();
      const { user } = useSession<typeof auth>();
      if (user) expectTypeOf(user.trialEndsAt).toEqualTypeOf<string | null>();
    }
    expect(typeof typesOnly).toBe('function');
    const store = createAuthClient<typeof auth>().createAuthStore();
    expectTypeOf(store.getState()).toEqualTypeOf<AuthState<Me>>();
  });
});
