/**
 * `createAuthStore()`: the session as a nanostores store.
 * @module
 */
import { atom, onMount, type ReadableAtom } from 'nanostores';
import { PAGE_ID, onChange, openChannel, type ChangeMessage } from './events.js';
import { endpoint } from './http.js';
import { getSession } from './session.js';
import type { SessionUser } from './infer.js';
import type { AuthClientOptions, AuthState, ClientUser } from './types.js';

/** The store returned by {@link createAuthStore}; `U` is the user's type. */
export interface AuthStore<U = ClientUser> {
  /** The nanostores atom, for `useStore($auth)` in @nanostores/react, vue, svelte… */
  readonly $auth: ReadableAtom<AuthState<U>>;
  /**
   * Calls `listener` with the current state now and on every change; returns
   * the unsubscribe function. The first subscriber starts the store.
   */
  subscribe(listener: (state: AuthState<U>) => void): () => void;
  /** The current `{user, session, status}`. Without subscribers this starts the store for a second. */
  getState(): AuthState<U>;
  /** Reads the session again; resolves when the state is updated. */
  refresh(): Promise<void>;
}

const LOADING: AuthState = { status: 'loading', user: null, session: null };
const SIGNED_OUT: AuthState = { status: 'unauthenticated', user: null, session: null };

/**
 * Creates a store of the session. Its status starts `loading` and becomes
 * `authenticated` (with `user` and `session`) or `unauthenticated`; it is
 * never `authenticated` without a user.
 *
 * It starts lazily: the first subscriber (nanostores `onMount`) reads
 * `GET {basePath}/session`. While mounted it reads the session again when the
 * window gets focus, after `signIn`/`signOut` in this page (with the same
 * `basePath`/`baseUrl`) and when another tab announces a change over
 * BroadcastChannel. Requests never overlap: a refresh asked for during one
 * runs right after it. A failed read keeps the last known state; before any
 * state is known it gives `unauthenticated` with `error`. A second after the
 * last subscriber leaves, the store stops and goes back to `loading`.
 *
 * The type argument names the user's type (see {@link SessionUser}): pass
 * the server's `typeof auth` (a type-only import) and `user` is typed as the
 * server's user in JSON form. Nothing is checked at run time.
 *
 * @param options where the auth routes live ({@link AuthClientOptions}).
 * @example
 * ```ts
 * import type { auth as server } from '../server/auth';
 * const typed = createAuthStore<typeof server>(); // typed.getState().user: the server's user
 *
 * const auth = createAuthStore();
 * auth.subscribe(({ status, user }) => {
 *   el.textContent = status === 'authenticated' ? `Hi ${user.name}` : status;
 * });
 * ```
 */
export function createAuthStore<S = ClientUser>(options: AuthClientOptions = {}): AuthStore<SessionUser<S>> {
  const ep = endpoint(options);
  const $auth = atom<AuthState>(LOADING);
  let mounted = false;
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;

  async function read(): Promise<void> {
    try {
      const session = await getSession(options);
      if (mounted) $auth.set(session ? { status: 'authenticated', user: session.user, session } : SIGNED_OUT);
    } catch (e) {
      if (mounted && $auth.get().status === 'loading')
        $auth.set({ status: 'unauthenticated', user: null, session: null, error: (e as Error).message });
    }
  }

  function refresh(): Promise<void> {
    if (!running) return (running = read().finally(() => (running = null)));
    return (queued ??= running.then(() => {
      queued = null;
      return refresh();
    }));
  }

  onMount($auth, () => {
    mounted = true;
    void refresh();
    const onFocus = () => void refresh();
    const win = typeof window === 'object' ? window : undefined;
    win?.addEventListener('focus', onFocus);
    const channel = openChannel(ep.base);
    if (channel) {
      channel.onmessage = (event: MessageEvent<ChangeMessage>) => {
        if (event.data?.type === 'session-changed' && event.data.from !== PAGE_ID) void refresh();
      };
    }
    const off = onChange(ep.base, refresh);
    return () => {
      mounted = false;
      win?.removeEventListener('focus', onFocus);
      channel?.close();
      off();
      $auth.set(LOADING);
    };
  });

  const store: AuthStore = {
    $auth,
    subscribe: (listener) => $auth.subscribe((state) => listener(state)),
    getState: () => $auth.get(),
    refresh,
  };
  // The user's type is the caller's claim about the server (type-only).
  return store as unknown as AuthStore<SessionUser<S>>;
}
