/**
 * `createAuthClient(options)`: the helpers bound to one auth API.
 * @module
 */
import { getSession } from './session.js';
import { addPasskey, type AddedPasskey, type AddPasskeyOptions } from './passkey.js';
import type { AccountResult } from './account.js';
import { signIn, type SignIn } from './sign-in.js';
import { signOut, type SignOutOptions, type SignOutResult } from './sign-out.js';
import { createAuthStore, type AuthStore } from './store.js';
import type { SessionUser } from './infer.js';
import type { AuthClientOptions, ClientSession, ClientUser } from './types.js';

/**
 * The helpers returned by {@link createAuthClient}, with the endpoint options
 * filled in; `U` is the user's type.
 */
export interface AuthClient<U = ClientUser> {
  /** `signIn(providerId, options?)` and `signIn.passkey(options?)`, bound. */
  signIn: SignIn;
  signOut(options?: SignOutOptions): Promise<SignOutResult>;
  getSession(): Promise<ClientSession<U> | null>;
  createAuthStore(): AuthStore<U>;
  addPasskey(options?: AddPasskeyOptions): Promise<AccountResult<AddedPasskey>>;
}

/**
 * Binds `signIn` (and `signIn.passkey`), `signOut`, `getSession`, `createAuthStore` and `addPasskey` to one
 * `basePath` / `baseUrl` / `fetch`, so an app with its auth API elsewhere
 * names it once. Options given to a call win over the bound ones. The type
 * argument types the user, as for {@link createAuthStore}.
 *
 * @example
 * ```ts
 * const auth = createAuthClient({ baseUrl: 'https://api.example.com' });
 * const store = auth.createAuthStore();
 * await auth.signIn('credentials', { email, password, redirect: false });
 * ```
 */
export function createAuthClient<S = ClientUser>(options: AuthClientOptions = {}): AuthClient<SessionUser<S>> {
  const client: AuthClient = {
    signIn: Object.assign((providerId: string, more?: object) => signIn(providerId, { ...options, ...more }), {
      passkey: (more?: object) => signIn.passkey({ ...options, ...more }),
    }),
    signOut: (more) => signOut({ ...options, ...more }),
    getSession: () => getSession(options),
    createAuthStore: () => createAuthStore(options),
    addPasskey: (more) => addPasskey({ ...options, ...more }),
  };
  return client as unknown as AuthClient<SessionUser<S>>;
}
