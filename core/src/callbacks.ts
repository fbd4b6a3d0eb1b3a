/**
 * Lifecycle callbacks (spec: "Callbacks: defineAuthCallbacks"). Each may
 * return synchronously or as a promise.
 * @module
 */
import type { Account, JWT, Profile, Session, User } from './types.js';

type MaybePromise<T> = T | Promise<T>;

export interface SignInParams {
  user: User;
  account: Account | null;
  profile?: Profile;
  /** Set for the email provider: `verificationRequest` is true when the link is being requested, not used. */
  email?: { verificationRequest?: boolean };
  /** The submitted fields, for the credentials provider. */
  credentials?: Record<string, string>;
}

export interface RedirectParams {
  /** The requested target (a `callbackUrl`), relative or absolute. */
  url: string;
  /** The app's origin, e.g. `https://app.example.com`. */
  baseUrl: string;
}

export interface SessionParams {
  session: Session;
  user: User;
  /** The decoded JWT, with the `jwt` strategy. */
  token?: JWT;
}

export interface JwtParams {
  token: JWT;
  user?: User;
  account?: Account | null;
  profile?: Profile;
  /** `signIn` at sign-in, `signUp` when the user was just created, `update` on `POST /session`; absent on refresh. */
  trigger?: 'signIn' | 'signUp' | 'update';
  /** With `trigger: 'update'`, the data the client posted. */
  session?: unknown;
}

/** The callbacks record. All optional. */
export interface AuthCallbacks {
  /**
   * Return true to allow; false to deny (error `AccessDenied`); or a URL to
   * deny and send the browser there instead (as Auth.js does: no session is
   * issued; JSON clients get 403 `ACCESS_DENIED` with `url`). Runs for every
   * sign-in method, sign-ups included, before anything is stored.
   */
  signIn?(params: SignInParams): MaybePromise<boolean | string>;
  /**
   * Decides where a `callbackUrl` may lead. The default allows relative paths,
   * the app's origin and `trustedOrigins`, and falls back to `baseUrl`.
   */
  redirect?(params: RedirectParams): MaybePromise<string>;
  /** Shapes what `getSession` and `GET /session` return. */
  session?(params: SessionParams): MaybePromise<Session>;
  /**
   * `jwt` strategy only: shapes the token's claims. Runs at sign-in, on `update`, and when the token is
   * re-issued (sliding refresh).
   */
  jwt?(params: JwtParams): MaybePromise<JWT>;
  /**
   * Runs first when a user deletes their account (`POST
   * {basePath}/account/delete`), before anything is removed: delete or
   * anonymise the app's own rows of `user` here. Throw an `AuthError` to
   * refuse the deletion (its code and status are answered); any other throw
   * answers 500 `CALLBACK_ERROR` and nothing is deleted.
   * @example
   * ```ts
   * callbacks: { onDeleteUser: async ({ user }) => { await db.deleteFrom('orders').where('user_id', '=', user.id).execute(); } }
   * ```
   */
  onDeleteUser?(params: DeleteUserParams): MaybePromise<void>;
}

/** What `onDeleteUser` receives. */
export interface DeleteUserParams {
  /** The stored user about to be deleted. */
  user: User;
}
