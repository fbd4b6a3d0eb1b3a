/**
 * `createAuthClient(options)`: the helpers bound to one auth API.
 * @module
 */
import { getSession } from './session.js';
import { addPasskey, type AddedPasskey, type AddPasskeyOptions } from './passkey.js';
import {
  changeEmail,
  changePassword,
  deleteAccount,
  listSessions,
  requestPasswordReset,
  resetPassword,
  revokeOtherSessions,
  revokeSession,
  sendVerificationEmail,
  signUp,
  undoEmailChange,
  unlinkAccount,
  verifyEmail,
  type AccountResult,
} from './account.js';
import { bindAction, bindActions, type BoundActions } from './bind.js';
import { signIn, type SignIn } from './sign-in.js';
import { signOut, type SignOutOptions, type SignOutResult } from './sign-out.js';
import { createAuthStore, type AuthStore } from './store.js';
import type { ResultErrorCode, SessionUser } from './infer.js';
import type { AuthClientOptions, ClientSession, ClientUser } from './types.js';

/** The account helpers a client carries, bound to its options. */
const ACCOUNT_ACTIONS = {
  signUp,
  sendVerificationEmail,
  requestPasswordReset,
  resetPassword,
  changePassword,
  changeEmail,
  verifyEmail,
  undoEmailChange,
  listSessions,
  revokeSession,
  revokeOtherSessions,
  unlinkAccount,
  deleteAccount,
};

/** The account helpers of `@framework/auth-client` (`signUp`, `changePassword`, ...), by name. */
export type AccountActions = typeof ACCOUNT_ACTIONS;

/**
 * The helpers returned by {@link createAuthClient}, with the endpoint options filled in (options given to a call
 * win over the bound ones). `U` is the user's type; `E` the codes of every result's `error` (`string`, or
 * {@link ResultErrorCode} of the server's `typeof auth`).
 *
 * The account helpers (`signUp`, `sendVerificationEmail`, `requestPasswordReset`, `resetPassword`,
 * `changePassword`, `changeEmail`, `verifyEmail`, `undoEmailChange`, `listSessions`, `revokeSession`,
 * `revokeOtherSessions`, `unlinkAccount`, `deleteAccount`) take the same arguments as the exported functions.
 */
export interface AuthClient<U = ClientUser, E extends string = string> extends BoundActions<AccountActions, E> {
  /** `signIn(providerId, options?)` and `signIn.passkey(options?)`, bound. */
  signIn: SignIn<E>;
  signOut(options?: SignOutOptions): Promise<SignOutResult<E>>;
  getSession(): Promise<ClientSession<U> | null>;
  createAuthStore(): AuthStore<U>;
  addPasskey(options?: AddPasskeyOptions): Promise<AccountResult<AddedPasskey, E>>;
  /**
   * The actions of a plugin's client module (or any object of functions built on `authRequest`, whose last
   * parameter is `options?: AuthClientOptions` with no default values before it), bound to this client's options,
   * with `error` typed as `E`.
   * @example
   * ```ts
   * import * as twoFactor from '@framework/auth-client/plugins/two-factor';
   * const auth = createAuthClient<typeof server>();
   * const { verifyTwoFactor } = auth.actions(twoFactor);
   * const { error } = await verifyTwoFactor({ code: '123456' }); // error: 'TWO_FACTOR_LOCKED' | … | undefined
   * ```
   */
  actions<M extends object>(actions: M): BoundActions<M, E>;
}

/**
 * Binds `signIn` (and `signIn.passkey`), `signOut`, `getSession`, `createAuthStore`, `addPasskey` and the account
 * helpers to one `basePath` / `baseUrl` / `fetch`, so an app with its auth API elsewhere names it once; `actions`
 * binds a plugin's client module the same way. Options given to a call win over the bound ones.
 *
 * The type argument is the server's `typeof auth` (type-only: nothing of the server is imported) or a user type.
 * With `typeof auth`, the user is inferred as for {@link createAuthStore}, and every result's `error` is
 * {@link ResultErrorCode}: the core's codes, the codes of the plugins given to `createAuth`, and the client's own
 * (`FETCH_ERROR`, ...). Without it, `error` is a `string`.
 *
 * @example
 * ```ts
 * import type { auth as server } from '../server/auth'; // createAuth({ ..., plugins: [twoFactor()] })
 *
 * const auth = createAuthClient<typeof server>({ baseUrl: 'https://api.example.com' });
 * const store = auth.createAuthStore();
 * const result = await auth.signIn('credentials', { email, password, redirect: false });
 * if (result.error === 'TWO_FACTOR_REQUIRED') showCodeForm(); // a typo here is a type error
 * ```
 */
export function createAuthClient<S = ClientUser>(
  options: AuthClientOptions = {},
): AuthClient<SessionUser<S>, ResultErrorCode<S>> {
  const client: AuthClient = {
    ...bindActions(ACCOUNT_ACTIONS, options),
    signIn: Object.assign((providerId: string, more?: object) => signIn(providerId, { ...options, ...more }), {
      passkey: (more?: object) => signIn.passkey({ ...options, ...more }),
    }),
    signOut: (more) => signOut({ ...options, ...more }),
    getSession: () => getSession(options),
    createAuthStore: () => createAuthStore(options),
    addPasskey: bindAction(addPasskey, options),
    actions: (actions) => bindActions(actions, options),
  };
  return client as unknown as AuthClient<SessionUser<S>, ResultErrorCode<S>>;
}
