/**
 * `@framework/auth-client/preact`: the session store as a Preact hook, through
 * the official `@nanostores/preact` binding.
 * @module
 */
import { useStore } from '@nanostores/preact';
import type { AuthState, AuthStore, ClientUser, SessionUser } from '@framework/auth-client';
import { defaultAuthStore } from './default-store.js';

/**
 * The session as Preact state: `{status, user, session}`, re-rendering on
 * every change. Status `loading` until the first answer, then
 * `authenticated` or `unauthenticated` (see `createAuthStore`).
 *
 * Without an argument it uses the page's default store (`basePath` `/auth`,
 * the page's origin); pass a store from `createAuthStore(options)` for
 * another API. The type argument types the user from the server:
 * `useSession<typeof auth>()` (a type-only import of your `createAuth`).
 *
 * @example
 * ```tsx
 * import { useSession } from '@framework/auth-client/preact';
 * import { signIn, signOut } from '@framework/auth-client';
 * import type { auth } from '../server/auth';
 *
 * export function Header() {
 *   const { status, user } = useSession<typeof auth>();
 *   if (status === 'loading') return <span>…</span>;
 *   if (status === 'unauthenticated') return <button onClick={() => signIn('github')}>Sign in</button>;
 *   return <button onClick={() => signOut()}>Sign out {user.email}</button>;
 * }
 * ```
 */
export function useSession<U>(store: AuthStore<U>): AuthState<U>;
export function useSession<S = ClientUser>(): AuthState<SessionUser<S>>;
export function useSession(store: AuthStore<unknown> = defaultAuthStore()): AuthState<unknown> {
  return useStore(store.$auth);
}
