/**
 * `@framework/auth-client` (also `@framework/auth/client`): browser helpers
 * for the auth routes and a nanostores store of the session. No server code.
 * @module
 */
export { signIn, type SignIn, type SignInOptions, type SignInResult } from './sign-in.js';
export { addPasskey, type AddPasskeyOptions, type AddedPasskey, type PasskeySignInOptions } from './passkey.js';
export { signOut, type SignOutOptions, type SignOutResult } from './sign-out.js';
export { getSession } from './session.js';
export {
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
  authRequest,
  type AccountResult,
  type SessionInfo,
} from './account.js';
export { createAuthStore, type AuthStore } from './store.js';
export { createAuthClient, type AccountActions, type AuthClient } from './client.js';
export type { BoundActions } from './bind.js';
export type { AuthClientOptions, AuthState, AuthStatus, ClientSession, ClientUser } from './types.js';
export type {
  AuthErrorCodeOf,
  AuthServerLike,
  ClientErrorCode,
  Jsonified,
  ResultErrorCode,
  SessionUser,
} from './infer.js';
