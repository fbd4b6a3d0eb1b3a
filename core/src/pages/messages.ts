/**
 * Friendly messages for the `error` query codes used on the error and
 * sign-in pages (Auth.js-compatible names). Unknown codes show `Default`;
 * raw exception text is never shown.
 * @module
 */
import { lookupErrorCode } from '../errors/registry.js';
import { en } from '../i18n/core/en.js';
import type { CoreTranslator } from '../i18n/core/index.js';

/** The page codes, each with an `error.<code>` message in every catalog. */
const PAGE_CODES = [
  'CredentialsSignin',
  'AccessDenied',
  'Forbidden',
  'Configuration',
  'Verification',
  'MissingCSRF',
  'SessionRequired',
  'RateLimited',
  'OAuthSignin',
  'OAuthCallbackError',
  'OAuthUserInfoFailed',
  'OAuthUserInfoMismatch',
  'OAuthAccountNotLinked',
  'InvalidProvider',
  'EmailSignInError',
  'PasskeyError',
  'NotFound',
  'Default',
] as const;

type PageCode = (typeof PAGE_CODES)[number];

/** The English messages by page code (the pages show them in the request's language: `error.<code>` ids). */
export const ERROR_MESSAGES: Readonly<Record<string, string>> = /* @__PURE__ */ Object.freeze(
  Object.fromEntries(PAGE_CODES.map((code) => [code, en[`error.${code}`]])),
);

/**
 * The page code of {@link ERROR_MESSAGES} an error's stable code is shown under: the `page` of the code's entry in
 * its `defineErrorCodes` table (the core's or a plugin's), or `Default`.
 */
export function pageErrorCode(code: string): string {
  return lookupErrorCode(code)?.page ?? 'Default';
}

/** The message of a page code in `t`'s language; an unknown or absent code shows `Default`. */
export function pageErrorMessage(t: CoreTranslator, pageCode: string | null | undefined): string {
  const code = (PAGE_CODES as readonly string[]).includes(pageCode ?? '') ? (pageCode as PageCode) : 'Default';
  return t(`error.${code}`);
}
