/**
 * `@framework/auth-client/vue`: the session store as a Vue ref, through the
 * official `@nanostores/vue` binding.
 * @module
 */
import { useStore } from '@nanostores/vue';
import type { DeepReadonly, Ref } from 'vue';
import type { AuthState, AuthStore, ClientUser, SessionUser } from '@framework/auth-client';
import { defaultAuthStore } from './default-store.js';

/**
 * The session as a read-only Vue ref holding `{status, user, session}`,
 * updated on every change and unsubscribed when the component's scope ends.
 * Status `loading` until the first answer, then `authenticated` or
 * `unauthenticated` (see `createAuthStore`).
 *
 * Without an argument it uses the page's default store (`basePath` `/auth`,
 * the page's origin); pass a store from `createAuthStore(options)` for
 * another API. `useSession<typeof auth>()` types the user from the server's
 * `createAuth` (a type-only import).
 *
 * @example
 * ```vue
 * <script setup lang="ts">
 * import { useSession } from '@framework/auth-client/vue';
 * import { signOut } from '@framework/auth-client';
 * const session = useSession();
 * </script>
 * <template>
 *   <span v-if="session.status === 'authenticated'">{{ session.user.email }}
 *     <button @click="signOut()">Sign out</button></span>
 *   <span v-else>{{ session.status }}</span>
 * </template>
 * ```
 */
export function useSession<U>(store: AuthStore<U>): Readonly<Ref<DeepReadonly<AuthState<U>>>>;
export function useSession<S = ClientUser>(): Readonly<Ref<DeepReadonly<AuthState<SessionUser<S>>>>>;
export function useSession(
  store: AuthStore<unknown> = defaultAuthStore(),
): Readonly<Ref<DeepReadonly<AuthState<unknown>>>> {
  return useStore(store.$auth) as Readonly<Ref<DeepReadonly<AuthState<unknown>>>>;
}
