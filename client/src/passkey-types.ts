/**
 * The options and results of the passkey helpers (`signIn.passkey()`, `addPasskey()`).
 * @module
 */
import type { AuthClientOptions } from './types.js';

/** Options of `signIn.passkey`. */
export interface PasskeySignInOptions extends AuthClientOptions {
  /** Where to go after signing in. Default: the current page. */
  callbackUrl?: string;
  /** Same as `callbackUrl`; wins when both are given. */
  redirectTo?: string;
  /** Navigate to the URL the server answers with. Default true; with false nothing navigates. */
  redirect?: boolean;
}

/** Options of {@link addPasskey}. */
export interface AddPasskeyOptions extends AuthClientOptions {
  /** A label for the passkey in the user's list (at most 100 characters). Default `Passkey` (the server's). */
  name?: string;
}

/** The passkey {@link addPasskey} stored: its credential id and label. */
export interface AddedPasskey {
  credential: { id: string; name: string };
}
