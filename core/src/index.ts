/**
 * `@framework/auth`: the auth engine, providers, storage adapters, request
 * helpers, errors and password/token utilities.
 * @module
 */
export { createAuth, type Auth, type CreateAuthOptions, type RequestInfo, type RequestSource } from './auth.js';
export { systemClock, type AuthClock } from './clock.js';
export type { MessageObserver, OutgoingMessage, OutgoingMessageKind } from './delivery.js';
export {
  getUser,
  getSession,
  isAuthenticated,
  requireAuth,
  currentScope,
  withRequestScope,
  hasRequestScope,
  type AuthScope,
  type RequireAuthOptions,
} from './scope.js';
export { hasRole, hasPermission, requireRole, requirePermission } from './rbac/helpers.js';
export { checkRole } from './rbac/check.js';
export { isPluginCredential } from './plugins/credential.js';
export type { RBAC, RBACConfig, Role, OwnedResource, RBACSubject } from './rbac/types.js';
export {
  AuthError,
  AuthConfigError,
  AuthRedirect,
  UnauthenticatedError,
  ForbiddenError,
  InvalidCredentialsError,
  SessionExpiredError,
  type AuthErrorOptions,
} from './errors.js';
export {
  AUTH_ERRORS,
  type AuthErrorCode,
  type AuthErrorCodes,
  type AuthErrorInfo,
  type CoreErrorCode,
} from './error-codes.js';
export { defineErrorCodes, type ErrorCodeTable, type ErrorCodesOf, type ErrorDetail } from './errors/define.js';
export type { ErrorCodeSpec } from './errors/registry.js';
export { authError } from './errors/auth-error.js';
export { PASSKEY_ERRORS } from './plugins/passkey/errors.js';
export { credentials } from './providers/credentials.js';
export * from './providers/oauth/index.js';
export { email, type EmailOptions, type EmailProvider, type EmailParams } from './providers/email.js';
export { passkey, type PasskeyConfig, type PasskeyOptions } from './plugins/passkey/provider.js';
export { issueSignIn } from './routes/complete-sign-in.js';
export type {
  Provider,
  CredentialsProvider,
  CredentialsOptions,
  CredentialInput,
  AuthContext,
} from './providers/types.js';
export { hashPassword, verifyPassword, PASSWORD_HASH_PARAMS, passwordHasherName } from './password.js';
export { generateToken } from './token.js';
export { readFormBody, DEFAULT_MAX_BODY_BYTES } from './http/body.js';
export { PAGE_SECURITY_HEADERS, applySecurityHeaders, withSecurityHeaders } from './http/response.js';
export {
  passwordAccounts,
  PASSWORD_PROVIDER,
  type PasswordAccounts,
  type PasswordAccountsOptions,
  type RegisterInput,
} from './password-accounts.js';
export * from './storage/index.js';
export * from './user-fields/index.js';
export type { User, Session, Account, AccountType, JWT, Profile } from './types.js';
export type { AuthCallbacks, SignInParams, RedirectParams, SessionParams, JwtParams } from './callbacks.js';
export type {
  AuthConfig,
  ResolvedAuthConfig,
  SessionConfig,
  CookieConfig,
  CookieOptions,
  PagesConfig,
} from './config.js';
export type {
  Action,
  ActionResult,
  AuthHooks,
  AuthInternals,
  AuthLogger,
  AuthPlugin,
  PluginApis,
  PluginErrorCodes,
  PluginExtensions,
  PluginRoute,
  RouteContext,
  RouteRateLimit,
  SessionState,
  SignedOutSession,
  SignInLink,
  SignInMethod,
  SignInSubject,
} from './contract/types.js';
export type { ApiCallOptions, ApiEndpoint, ApiMethod, ApiMethods, ApiResult } from './contract/api.js';
export type { OkJson, ProvidersJson, SessionInfoJson, SessionJson, UserJson } from './contract/wire.js';
export type { CoreApi } from './engine/core-api.js';
export { endpoint } from './engine/endpoint.js';
export { emailAndPassword } from './email-password/plugin.js';
export {
  requestUrlOf,
  checkRequestTarget,
  clientErrorOf,
  withSetCookies,
  bodylessRequest,
} from './http/adapter-kit.js';
export type { WebhookRuntime } from './http/webhook-runtime.js';
export {
  emailedLinkRoute,
  emailedLinkUrl,
  showEmailedLink,
  confirmLinkPage,
  MAX_LINK_PARAM,
  type EmailedLinkSpec,
  type LinkForm,
} from './links/emailed-link.js';
export { ERROR_MESSAGES } from './pages/messages.js';
export type { LocaleOptions } from './i18n/options.js';
export { negotiateLocale, parseAcceptLanguage, type LanguageRange } from './i18n/accept-language.js';
export type { AuthEvents, AuthEvent, AuthEventName, AuthEventPayloads, AuthEventContext } from './events.js';
export type { EmailAndPasswordOptions, AccountMail, EmailChangeNotice } from './email-password/options.js';
export type { RateLimitRefusal } from './rate-limit/refusals.js';
