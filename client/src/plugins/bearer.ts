/**
 * `@framework/auth-client/plugins/bearer`: the client side of the server's `bearer()` plugin
 * (`@framework/auth/plugins/bearer`), for apps that keep no cookies (React Native, Electron, a CLI). Give
 * {@link bearerFetch} as the client's `fetch` option: it sends the stored token as `Authorization: Bearer` (or
 * `x-auth-mode: bearer` before there is one), sends no cookies, and stores the token the server answers in
 * `set-auth-token` (an empty value clears it).
 *
 * Errors of the routes here: `BEARER_INVALID` (401: no token, or its session ended), `BEARER_WITH_COOKIE` (400).
 * @module
 */
import { authRequest, type AccountResult, type AuthClientOptions } from '@framework/auth-client';

/** Where the token is kept: memory by default; a secure store (Keychain, Keystore) in an app. */
export interface BearerTokenStore {
  get(): string | null | Promise<string | null>;
  /** `null` removes the token. */
  set(token: string | null): void | Promise<void>;
}

/** Options of {@link bearerFetch}. */
export interface BearerFetchOptions {
  /** Default: {@link memoryTokenStore}. */
  store?: BearerTokenStore;
  /** The `fetch` underneath. Default: the global `fetch`. */
  fetch?: typeof fetch;
}

/**
 * A token store in this process's memory (lost on restart).
 * @example
 * ```ts
 * const store = memoryTokenStore();
 * ```
 */
export function memoryTokenStore(initial: string | null = null): BearerTokenStore {
  let token = initial;
  return {
    get: () => token,
    set: (next) => {
      token = next;
    },
  };
}

/**
 * A `fetch` that carries the session in `Authorization: Bearer` and never cookies (`credentials: 'omit'`), and
 * keeps the token of every `set-auth-token` answer in `store`.
 * @example
 * ```ts
 * import { createAuthClient } from '@framework/auth-client';
 * import { bearerFetch, memoryTokenStore } from '@framework/auth-client/plugins/bearer';
 *
 * const store = memoryTokenStore();
 * const options = { baseUrl: 'https://api.example.com', fetch: bearerFetch({ store }) };
 * const client = createAuthClient(options);
 * ```
 */
export function bearerFetch(options: BearerFetchOptions = {}): typeof fetch {
  const store = options.store ?? memoryTokenStore();
  return async (input, init = {}) => {
    const run = options.fetch ?? fetch;
    const headers = new Headers(init.headers);
    headers.delete('cookie');
    const token = await store.get();
    if (token) headers.set('authorization', `Bearer ${token}`);
    else headers.set('x-auth-mode', 'bearer');
    const response = await run(input, { ...init, headers, credentials: 'omit' });
    const answered = response.headers.get('set-auth-token');
    if (answered !== null) await store.set(answered === '' ? null : answered);
    return response;
  };
}

/** The session as `GET {basePath}/bearer/session` answers it. */
export interface BearerSession {
  user: { id: string; name: string | null; email: string | null; image: string | null };
  /** ISO 8601. */
  expires: string;
}

/**
 * The token's session: `GET {basePath}/bearer/session` (`options.fetch` should be a {@link bearerFetch}).
 * @example
 * ```ts
 * const { ok, data } = await getBearerSession(options);
 * ```
 */
export const getBearerSession = (options?: AuthClientOptions) => authRequest<BearerSession>('/bearer/session', options);

/**
 * Ends the token's session on the server: `POST {basePath}/bearer/sign-out`; the answer clears the stored token.
 * @example
 * ```ts
 * await signOutBearer(options);
 * ```
 */
export const signOutBearer = (options?: AuthClientOptions) => authRequest('/bearer/sign-out', options, {});

export type { AccountResult };
