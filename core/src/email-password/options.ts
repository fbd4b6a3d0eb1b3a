/**
 * The `emailAndPassword` option group of `createAuth`: built-in sign-up,
 * email verification, password reset and change, and email change.
 * @module
 */
import { AuthConfigError } from '../errors.js';
import { MAX_PASSWORD_BYTES } from '../password.js';
import type { User } from '../types.js';

/**
 * What the mail hooks receive. `url` is built on `baseURL`; `token` is the single-use secret inside it. The link
 * opens a page whose button uses the token (a POST): mail scanners and previews fetching it change nothing.
 */
export interface AccountMail {
  user: User;
  /** The link to send, on the app's canonical origin (`baseURL`). */
  url: string;
  token: string;
  /** The address to send to (the new one for an email change). */
  email: string;
}

/**
 * What `sendEmailChangeNotice` receives after an email change: a notice to the old address, with a link that
 * undoes the change (restores `email`, marks it verified and ends every session of the user).
 */
export interface EmailChangeNotice extends AccountMail {
  /** The old address: send the notice here. */
  email: string;
  /** The address the account uses now. */
  newEmail: string;
  /** When the undo link stops working (`emailChangeUndoTtl` after the change). */
  expires: Date;
}

/** Options of `createAuth({ emailAndPassword })`. */
export interface EmailAndPasswordOptions {
  /** Serve `GET/POST /signup`. Default true. */
  signUp?: boolean;
  /**
   * Refuse a password sign-in of an account whose email is unverified
   * (`EMAIL_NOT_VERIFIED`, 403, and a fresh verification mail, rate-limited),
   * and answer sign-up neutrally so it cannot reveal which emails have
   * accounts. Needs `sendVerificationEmail`. Default false.
   */
  requireEmailVerification?: boolean;
  /** Shortest password, in characters. Default 8 (OWASP ASVS V2.1.1). */
  minPasswordLength?: number;
  /** Longest password, in characters. Default 128. */
  maxPasswordLength?: number;
  /** Sends the verification link (sign-up, resend, email change). Awaited; a throw answers 502. */
  sendVerificationEmail?: (mail: AccountMail) => Promise<void> | void;
  /**
   * Sends the password-reset link. Not awaited by `POST /password/forgot`, so its timing tells nothing; a
   * throw is logged.
   */
  sendResetPassword?: (mail: AccountMail) => Promise<void> | void;
  /** Sign the person in after sign-up (never while verification is required). Default true. */
  autoSignIn?: boolean;
  /**
   * Sends the notice of a completed email change to the OLD address, with a link that undoes it (OWASP ASVS
   * V2.5.7 / V3.7). `POST /email/change` answers `NOT_SUPPORTED` (400) without it. Not awaited; a throw is logged.
   */
  sendEmailChangeNotice?: (mail: EmailChangeNotice) => Promise<void> | void;
  /** How long the undo link of an email change works, in seconds. Default 604800 (7 days). */
  emailChangeUndoTtl?: number;
}

/** The options with defaults applied. */
export interface ResolvedEmailAndPassword {
  signUp: boolean;
  requireEmailVerification: boolean;
  minPasswordLength: number;
  maxPasswordLength: number;
  sendVerificationEmail: EmailAndPasswordOptions['sendVerificationEmail'];
  sendResetPassword: EmailAndPasswordOptions['sendResetPassword'];
  sendEmailChangeNotice: EmailAndPasswordOptions['sendEmailChangeNotice'];
  /** Seconds. */
  emailChangeUndoTtl: number;
  autoSignIn: boolean;
}

/** Lifetime of a verification link (sign-up, email change), in seconds: 24 h. */
export const VERIFICATION_TTL = 24 * 3600;
/** Lifetime of a password-reset link, in seconds: 1 h (OWASP Forgot Password cheat sheet). */
export const RESET_TTL = 3600;

/**
 * Checks and completes the options.
 * @throws AuthConfigError (`INVALID_CONFIG`) naming the key at fault.
 */
export function resolveEmailAndPassword(options: EmailAndPasswordOptions): ResolvedEmailAndPassword {
  const fail = (key: string, what: string) =>
    new AuthConfigError(`Invalid auth config: emailAndPassword.${key} ${what}`);
  if (!options || typeof options !== 'object')
    throw new AuthConfigError('Invalid auth config: emailAndPassword must be an object');
  for (const key of ['signUp', 'requireEmailVerification', 'autoSignIn'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') throw fail(key, 'must be a boolean');
  }
  for (const key of ['sendVerificationEmail', 'sendResetPassword', 'sendEmailChangeNotice'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'function') throw fail(key, 'must be a function');
  }
  const min = options.minPasswordLength ?? 8;
  const max = options.maxPasswordLength ?? 128;
  if (!Number.isInteger(min) || min < 1) throw fail('minPasswordLength', 'must be a positive integer');
  if (!Number.isInteger(max) || max < min || max * 4 > MAX_PASSWORD_BYTES) {
    throw fail(
      'maxPasswordLength',
      `must be an integer from minPasswordLength to ${Math.floor(MAX_PASSWORD_BYTES / 4)}`,
    );
  }
  const undoTtl = options.emailChangeUndoTtl ?? 7 * 24 * 3600;
  if (!Number.isInteger(undoTtl) || undoTtl < 60 || undoTtl > 90 * 24 * 3600)
    throw fail('emailChangeUndoTtl', 'must be a whole number of seconds from 60 to 7776000 (90 days)');
  const requireEmailVerification = options.requireEmailVerification ?? false;
  if (requireEmailVerification && !options.sendVerificationEmail)
    throw fail('sendVerificationEmail', 'is required when requireEmailVerification is on');
  return {
    signUp: options.signUp ?? true,
    requireEmailVerification,
    minPasswordLength: min,
    maxPasswordLength: max,
    sendVerificationEmail: options.sendVerificationEmail,
    sendResetPassword: options.sendResetPassword,
    sendEmailChangeNotice: options.sendEmailChangeNotice,
    emailChangeUndoTtl: undoTtl,
    autoSignIn: options.autoSignIn ?? true,
  };
}
