/**
 * `@framework/auth-client/solid`: the session store as a Solid accessor,
 * through the official `@nanostores/solid` binding.
 * @module
 */
import { useStore } from '@nanostores/solid';
import type { Accessor } from 'solid-js';
import type { AuthState, AuthStore, ClientUser, SessionUser } from '@framework/auth-client';
import { defaultAuthStore } from './default-store.js';

/**
 * The session as a Solid accessor of `{status, user, session}`, tracked
 * like a signal and unsubscribed when the owner (component, root) is
 * disposed. Status `loading` until the first answer, then `authenticated`
 * or `unauthenticated` (see `createAuthStore`).
 *
 * Without an argument it uses the page's default store (`basePath` `/auth`,
 * the page's origin); pass a store from `createAuthStore(options)` for
 * another API. `useSession<typeof auth>()` types the user from the server's
 * `createAuth` (a type-only import).
 *
 * @example
 * ```tsx
 * import { Show } from 'solid-js';
 * import { useSession } from '@framework/auth-client/solid';
 *
 * export function Header() {
 *   const session = useSession();
 *   return (
 *     <Show when={session().status === 'authenticated'} fallback={<span>{session().status}</span>}>
 *       <span>{session().user?.email}</span>
 *     </Show>
 *   );
 * }
 * ```
 */
export function useSession<U>(store: AuthStore<U>): Accessor<AuthState<U>>;
export function useSession<S = ClientUser>(): Accessor<AuthState<SessionUser<S>>>;
export function useSession(store: AuthStore<unknown> = defaultAuthStore()): Accessor<AuthState<unknown>> {
  return useStore(store.$auth);
}
