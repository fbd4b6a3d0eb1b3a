/**
 * `@framework/auth-client/svelte`: the session store as a Svelte store. A
 * nanostores atom already keeps Svelte's store contract (`subscribe` calls
 * the listener at once and returns the unsubscribe function), so this is a
 * typed view of it, with no Svelte code at run time.
 * @module
 */
import type { Readable } from 'svelte/store';
import type { AuthState, AuthStore, ClientUser, SessionUser } from '@framework/auth-client';
import { defaultAuthStore } from './default-store.js';

/**
 * The session as a Svelte readable store of `{status, user, session}`: read
 * it with `$session` in a component (Svelte subscribes and unsubscribes).
 * Status `loading` until the first answer, then `authenticated` or
 * `unauthenticated` (see `createAuthStore`).
 *
 * Without an argument it uses the page's default store (`basePath` `/auth`,
 * the page's origin); pass a store from `createAuthStore(options)` for
 * another API. `useSession<typeof auth>()` types the user from the server's
 * `createAuth` (a type-only import).
 *
 * @example
 * ```svelte
 * <script lang="ts">
 *   import { useSession } from '@framework/auth-client/svelte';
 *   const session = useSession();
 * </script>
 * {#if $session.status === 'authenticated'}{$session.user.email}{:else}{$session.status}{/if}
 * ```
 */
export function useSession<U>(store: AuthStore<U>): Readable<AuthState<U>>;
export function useSession<S = ClientUser>(): Readable<AuthState<SessionUser<S>>>;
export function useSession(store: AuthStore<unknown> = defaultAuthStore()): Readable<AuthState<unknown>> {
  return { subscribe: (listener) => store.$auth.subscribe((state) => listener(state)) };
}
