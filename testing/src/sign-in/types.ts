/**
 * Shapes of the signed-in browser helpers (`signIn`, `signedInStorageState`, `testSignInRoute`).
 * @module
 */
import type { Auth } from '@framework/auth';

/**
 * Who to sign in, and what the account should have first.
 * @example
 * ```ts
 * const options: SignInOptions = { as: 'ada@example.com', roles: ['admin'], organization: 'Acme', twoFactor: true };
 * ```
 */
export interface SignInOptions {
  /** The user's email. A stored user with it is reused; else one is created with the email already verified. */
  as: string;
  /** The name of a user created here. Default: the email's local part. */
  name?: string;
  /** RBAC role ids stored on the user (`user.roles`), replacing what it had. Default: left as stored. */
  roles?: readonly string[];
  /**
   * An organization (`organizations()` plugin) the user owns and has active: created through
   * `POST {basePath}/org/create` unless the user already belongs to one of that name (or slug), which is then made
   * active. A string is the name.
   */
  organization?: string | { name: string; slug?: string };
  /**
   * Enrol the user in two-factor authentication (`twoFactor()` plugin) through its own routes (`enable`, then
   * `confirm` with a code computed from the returned key), unless already enrolled. The browser's session counts
   * as past the second factor. Default false.
   */
  twoFactor?: boolean;
}

/** A cookie in Playwright's shape (`BrowserContext.addCookies`, `storageState.cookies`). */
export interface BrowserCookie {
  name: string;
  value: string;
  /** The host the cookie belongs to (host-only: exactly this host). */
  domain: string;
  path: string;
  /** Unix time in **seconds**; -1 for a session cookie. */
  expires: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Strict' | 'Lax' | 'None';
}

/** What a sign-in made. */
export interface SignInResult {
  user: { id: string; email: string };
  /** The browser's cookies: the session, and the active organization when asked for. */
  cookies: BrowserCookie[];
  /** The same cookies as a `Cookie` request header (`name=value; …`), for a `Request` of your own (a loader's). */
  cookieHeader: string;
  /** The `otpauth://` key URI of the user's TOTP enrolment, when `twoFactor` enrolled the user here. */
  totpURI?: string;
}

/**
 * Where sessions come from: the app's `auth` in this process, or, for an app served by another process, its
 * `testSignInRoute()` and the shared secret.
 * @example
 * ```ts
 * const local: SignInTarget = { auth, baseURL: 'http://127.0.0.1:3000' };
 * const remote: SignInTarget = { baseURL: 'http://127.0.0.1:3000', secret: process.env.TEST_SIGN_IN_SECRET! };
 * ```
 */
export type SignInTarget =
  | {
      /** The kit's auth of the app the browser visits (same storage, same secret). */
      auth: Auth;
      /** The app's origin as the browser sees it (cookies are set for its host). */
      baseURL: string;
    }
  | {
      /** The app's origin as the browser sees it. */
      baseURL: string;
      /** The secret given to `testSignInRoute({ secret })`. */
      secret: string;
      /** The auth's `basePath`. Default `/auth`. */
      basePath?: string;
    };
