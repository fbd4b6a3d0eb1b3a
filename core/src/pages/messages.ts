/**
 * Friendly messages for the `error` query codes used on the error and
 * sign-in pages (Auth.js-compatible names). Unknown codes show `Default`;
 * raw exception text is never shown.
 * @module
 */
import { lookupErrorCode } from '../errors/registry.js';

export const ERROR_MESSAGES: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze({
  CredentialsSignin: 'Sign in failed. Check the details you entered and try again.',
  AccessDenied: 'You do not have permission to sign in.',
  Forbidden: 'Your account cannot open this page. Ask an administrator if you need access.',
  Configuration: 'There is a problem with the server configuration. Try again later.',
  Verification: 'The sign-in link is no longer valid. It may have been used already or it may have expired.',
  MissingCSRF: 'Your form expired. Go back, reload the page and try again.',
  SessionRequired: 'Please sign in to view this page.',
  RateLimited: 'Too many attempts. Wait a little and try again.',
  OAuthSignin: 'Could not start the sign-in with the provider. Try again later.',
  OAuthCallbackError: 'The sign-in with the provider could not be completed. Please try again.',
  OAuthUserInfoFailed: 'The provider did not send your account details. Please try again later.',
  OAuthUserInfoMismatch:
    'The account details from the provider did not match the sign-in, so it was stopped. Please try again.',
  OAuthAccountNotLinked:
    'An account with this email already exists. Sign in the way you did before, then link this provider.',
  InvalidProvider: 'This sign-in method is not available.',
  EmailSignInError: 'The sign-in email could not be sent. Please try again later.',
  PasskeyError: 'The passkey could not be used. Please try again.',
  NotFound: 'There is no page at this address.',
  Default: 'Something went wrong. Please try again.',
});

/**
 * The page code of {@link ERROR_MESSAGES} an error's stable code is shown under: the `page` of the code's entry in
 * its `defineErrorCodes` table (the core's or a plugin's), or `Default`.
 */
export function pageErrorCode(code: string): string {
  return lookupErrorCode(code)?.page ?? 'Default';
}

export function messageFor(pageCode: string | null | undefined): string {
  return (pageCode && Object.hasOwn(ERROR_MESSAGES, pageCode) ? ERROR_MESSAGES[pageCode] : ERROR_MESSAGES.Default)!;
}
