/**
 * `createAuthClient(options)`: the helpers bound to one auth API.
 * @module
 */
import { getSession } from './session.js';
import { signIn, type SignInOptions, type SignInResult } from './sign-in.js';
import { signOut, type SignOutOptions, type SignOutResult } from './sign-out.js';
import { createAuthStore, type AuthStore } from './store.js';
import type { AuthClientOptions, ClientSession } from './types.js';

/** The helpers returned by {@link createAuthClient}, with the endpoint options filled in. */
export interface AuthClient {
  signIn(providerId: string, options?: SignInOptions): Promise<SignInResult>;
  signOut(options?: SignOutOptions): Promise<SignOutResult>;
  getSession(): Promise<ClientSession | null>;
  createAuthStore(): AuthStore;
}

/**
 * Binds `signIn`, `signOut`, `getSession` and `createAuthStore` to one
 * `basePath` / `baseUrl` / `fetch`, so an app with its auth API elsewhere
 * names it once. Options given to a call win over the bound ones.
 *
 * @example
 * ```ts
 * const auth = createAuthClient({ baseUrl: 'https://api.example.com' });
 * const store = auth.createAuthStore();
 * await auth.signIn('credentials', { email, password, redirect: false });
 * ```
 */
export function createAuthClient(options: AuthClientOptions = {}): AuthClient {
  return {
    signIn: (providerId, more) => signIn(providerId, { ...options, ...more }),
    signOut: (more) => signOut({ ...options, ...more }),
    getSession: () => getSession(options),
    createAuthStore: () => createAuthStore(options),
  };
}
