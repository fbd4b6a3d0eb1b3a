/**
 * `@framework/nuxt/composables`: the browser's session for Vue pages, over the nanostores store of
 * `@framework/auth-client` and its official `@nanostores/vue` binding.
 * @module
 */
import { computed, readonly, ref, type ComputedRef, type DeepReadonly, type Ref } from 'vue';
import type { AuthState, AuthStore, ClientUser, SessionUser } from '@framework/auth-client';
import { useSession } from '@framework/auth-client/vue';

/** What {@link useAuthSession} gives a component. */
export interface AuthSessionRefs<U> {
  /** `{status, user, session}`, updated on every change of the store. */
  state: Readonly<Ref<DeepReadonly<AuthState<U>>>>;
  /** `loading` until the first answer, then `authenticated` or `unauthenticated`. */
  status: ComputedRef<AuthState<U>['status']>;
  /** The signed-in user, or null. */
  user: ComputedRef<DeepReadonly<U> | null>;
}

const LOADING = { status: 'loading', user: null, session: null } as const;

/**
 * The browser's session as Vue refs, from the nanostores store of `@framework/auth-client` through
 * `@nanostores/vue`'s `useStore` (the page's default store, or `store`). In the browser it subscribes (reading
 * `GET /auth/session`, again on focus, after `signIn` / `signOut` and on other tabs' changes) and unsubscribes
 * when the component's scope ends. During server rendering it stays `loading` and fetches nothing, so server and
 * browser render the same markup until the store answers; read the server's view of the session with
 * `getSession(useRequestEvent())` from `@framework/nuxt` in a `.server` plugin.
 *
 * @param store a store from `createAuthStore(options)` (another `basePath` or origin); default the page's own.
 * @example
 * ```vue
 * <script setup lang="ts">
 * import { signOut } from '@framework/auth-client';
 * import { useAuthSession } from '@framework/nuxt/composables';
 * const { status, user } = useAuthSession();
 * </script>
 * <template>
 *   <p v-if="status === 'authenticated'">{{ user?.email }} <button @click="signOut()">Sign out</button></p>
 *   <p v-else>{{ status }}</p>
 * </template>
 * ```
 */
export function useAuthSession<U>(store: AuthStore<U>): AuthSessionRefs<U>;
export function useAuthSession<S = ClientUser>(): AuthSessionRefs<SessionUser<S>>;
export function useAuthSession(store?: AuthStore<unknown>): AuthSessionRefs<unknown> {
  const state =
    typeof window === 'undefined'
      ? (readonly(ref(LOADING)) as unknown as Readonly<Ref<DeepReadonly<AuthState<unknown>>>>)
      : store
        ? useSession(store)
        : useSession();
  return {
    state,
    status: computed(() => state.value.status),
    user: computed(() => state.value.user as DeepReadonly<unknown> | null),
  };
}
