/**
 * `@framework/auth/plugin-kit`: everything the built-in plugins are built with, for plugins of your own. A plugin
 * written on this kit has the same reach as `twoFactor()` or `passkey()`: routes with CSRF and rate-limit
 * policies, sign-in completion (and resuming a sign-in a first factor started), events, sealed cookies, the default
 * page layout, SQL storage with migrations on every dialect, the token cipher, and error codes of its own.
 * See `core/PLUGINS.md` for the guide.
 *
 * @example
 * ```ts
 * import { completeSignIn, defineErrorCodes, type AuthPlugin } from '@framework/auth/plugin-kit';
 *
 * const errors = defineErrorCodes({ CODE_WRONG: { status: 400, message: 'That code is wrong' } });
 * export const codeSignIn = (): AuthPlugin<'code'> => ({
 *   id: 'code',
 *   routes: {
 *     'code/verify': {
 *       POST: async (ctx) => {
 *         const user = ctx.body.code === '123456' ? await ctx.auth.adapter!.getUserByEmail(ctx.body.email ?? '') : null;
 *         if (!user) throw errors.error('CODE_WRONG');
 *         return completeSignIn(ctx, { user, account: null, provider: 'code', callbackUrl: '/' });
 *       },
 *     },
 *   },
 * });
 * ```
 * @module
 */

// The contract: routes, context, results, hooks, plugins.
export type {
  Action,
  ActionResult,
  AuthHooks,
  AuthInternals,
  AuthLogger,
  AuthPlugin,
  PluginErrorCodes,
  PluginExtensions,
  PluginRoute,
  RequestInfo,
  RouteContext,
  RouteRateLimit,
  SessionState,
  SignedOutSession,
  SignInLink,
  SignInMethod,
  SignInSubject,
  SignUpField,
  SignUpFieldInputType,
} from './contract/types.js';

// The server API: a plugin's routes on `auth.api`.
export type { ApiCallOptions, ApiEndpoint, ApiMethod, ApiMethods, ApiResult } from './contract/api.js';
export { endpoint } from './engine/endpoint.js';

// Errors: the kit's classes and codes of your own.
export { AuthConfigError, AuthError, ForbiddenError, UnauthenticatedError, badRequest } from './errors.js';
export { defineErrorCodes, type ErrorCodeTable, type ErrorCodesOf, type ErrorDetail } from './errors/define.js';
export type { ErrorCodeSpec } from './errors/registry.js';
export { authError } from './errors/auth-error.js';

// The signed-in caller of a route.
export {
  done,
  impersonationRestricted,
  notSupported,
  signedIn,
  signedInAsSelf,
  signInRedirect,
  storageOf,
  type Caller,
} from './routes/account/signed-in.js';
export { cookieCaller } from './plugins/cookie-caller.js';
export { withoutCookie } from './plugins/without-cookie.js';
export { confirmHolder, passwordHashOf } from './routes/account/confirm-holder.js';
export { removeStoredUser } from './routes/account/remove-user.js';
export { isPluginCredential } from './plugins/credential.js';

// Sign-in: complete one, or resume one a first factor started (a second factor), and admit or deny it.
export {
  allowSignIn,
  clientOf,
  completeSignIn,
  deniedWithRedirect,
  issueSignIn,
  type SignInAttempt,
} from './routes/complete-sign-in.js';
export { attemptIdentity, type AttemptIdentity } from './routes/rate-limited.js';
// The OAuth sign-in's account rules (linked account, signed-in linking, a trusted verified email, else a new user),
// for plugins that sign in with a provider's identity without the OAuth flow (`oneTap()`).
export { applyOAuthSignIn, planOAuthSignIn, type SignInPlan } from './routes/oauth-account.js';
// The OAuth 2.0 / OIDC flow itself (discovery, PKCE, state, nonce, UserInfo) for providers a plugin builds at runtime
// from stored settings with `createOAuth2Provider` and serves at a callback route of its own (`sso()`).
export { oauthCallbackAction, oauthSignInAction, type OAuthFlowOptions } from './routes/oauth.js';
export { createOAuth2Provider, type OAuth2ProviderOptions } from './providers/oauth/create.js';
export type { OAuthProvider, UserProfile } from './providers/oauth/types.js';

// Events, responses, cookies, CSRF.
export { emit } from './routes/emit.js';
export { eventContext } from './events.js';
export {
  clearSessionCookie,
  csrfFor,
  errorResult,
  publicSession,
  publicUser,
  resolveCallbackUrl,
  sessionCookie,
} from './routes/helpers.js';
export { expiredCookie, readCookie, type OutCookie } from './http/cookies.js';
export { seal, unseal } from './http/sealed.js';

// Pages and emailed links.
export { escapeHtml, hidden, layout } from './pages/html.js';
// The pages' languages: catalogs of your own strings, the request's locale, translated error messages.
export {
  defineMessages,
  errorMessageFor,
  formatMessage,
  type LocaleSource,
  type MessageCatalog,
  type MessageCatalogs,
  type MessageParams,
  type Messages,
  type Translator,
} from './i18n/catalog.js';
export { pageLocale, type PageLocale } from './i18n/request-locale.js';
export {
  confirmLinkPage,
  emailedLinkRoute,
  emailedLinkUrl,
  showEmailedLink,
  type EmailedLinkSpec,
  type LinkForm,
} from './links/emailed-link.js';

// Input, secrets and tokens.
export { parseDisplayName, parseEmailAddress, USER_NAME_MAX_LENGTH } from './input/text.js';
export { fromBase64Url, randomBytes, randomString, sha256Hex, timingSafeEqual, toBase64Url, toHex } from './crypto.js';
export { tokenCipher, type TokenCipher } from './storage/token-cipher.js';

// Rate limits.
export { rateLimitHeaders } from './rate-limit/responses.js';
export { withTimeout } from './rate-limit/timeout.js';

// SQL storage with migrations on SQLite, PostgreSQL, MySQL/MariaDB and D1.
export {
  adapterStorage,
  pluginSql,
  type AdapterStorage,
  type AdapterStorageFactories,
  type PluginSql,
} from './plugins/plugin-sql.js';
export {
  createTable,
  detectDialect,
  dialects,
  upsert,
  type DialectTraits,
  type SqlDialectName,
} from './storage/sql/dialect.js';
export { runMigrations, type MigrationRun } from './storage/sql/migrator.js';
export { StorageConflictError, type AdapterUser, type StorageAdapter } from './storage/types.js';
