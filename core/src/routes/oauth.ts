/**
 * The OAuth 2.0 / OIDC authorization code flow: `POST /signin/:provider`
 * starts it (CSRF-checked), `GET|POST /callback/:provider` completes it
 * (POST for `response_mode=form_post`; protected by state + PKCE + nonce and
 * the flow cookie instead of the CSRF token).
 * @internal
 * @module
 */
import { AuthError } from '../errors.js';
import { authError } from '../errors/auth-error.js';
import {
  authorizationUrl,
  exchangeCode,
  fetchProfile,
  isAccessDenied,
  providerClient,
  refreshTokens,
  type ProviderClient,
} from '../providers/oauth/client.js';
import type { SignInFlow } from '../providers/flow.js';
import {
  clearFlow,
  flowCookieName,
  openFlow,
  sealFlow,
  type FlowCookieOptions,
} from '../providers/oauth/flow-cookie.js';
import type { OAuthProvider, UserProfile } from '../providers/oauth/types.js';
import type { Profile, User } from '../types.js';
import { pageErrorCode } from '../pages/messages.js';
import type { ActionResult, AuthInternals, RouteContext } from '../contract/types.js';
import { callUser, errorResult, resolveCallbackUrl } from './helpers.js';
import { completeSignIn } from './complete-sign-in.js';
import { accountFrom, applyOAuthSignIn, planOAuthSignIn } from './oauth-account.js';
import { checkIdpProfile } from '../input/idp-profile.js';

/** One client per provider record (its discovery document and JWKS are cached there). */
const clients = new WeakMap<OAuthProvider, ProviderClient>();
function clientOf(provider: OAuthProvider): ProviderClient {
  let client = clients.get(provider);
  if (!client) clients.set(provider, (client = providerClient(provider)));
  return client;
}

function flowOptions(auth: AuthInternals, provider: OAuthProvider): FlowCookieOptions {
  const secure = auth.config.cookies.sessionToken.options.secure;
  return {
    secure,
    sameSite: provider.responseMode === 'form_post' && secure ? 'none' : 'lax',
    path: auth.config.basePath,
  };
}

/**
 * How a plugin runs the flow for a provider it builds at runtime from stored settings (`sso()`), at a callback
 * route of its own.
 */
export interface OAuthFlowOptions {
  /** The callback path under `basePath` the provider redirects back to. Default `/callback/<provider id>`. */
  callbackPath?: string;
  /**
   * Runs inside the sign-in's writes, after the user is stored and the account linked or refreshed, with the
   * raw profile (the validated ID token claims with UserInfo merged over them): e.g. joining an organization.
   * A throw fails the sign-in before any session is issued.
   */
  afterPersist?: (user: User, profile: Profile) => Promise<void>;
}

function redirectUri(ctx: RouteContext, provider: OAuthProvider, options: OAuthFlowOptions = {}): string {
  return `${ctx.origin}${ctx.auth.config.basePath}${options.callbackPath ?? `/callback/${provider.id}`}`;
}

function logFailure(auth: AuthInternals, provider: OAuthProvider, step: string, error: unknown): void {
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : '';
  auth.logger.warn(`[auth] ${provider.id}: ${step} failed: ${name}: ${message}`);
}

function callbackError(message = 'The sign-in with the provider could not be completed'): AuthError {
  return authError('OAUTH_CALLBACK_ERROR', message);
}

/** Answers a flow error: browsers go to the error page with a stable `error` code. */
function failure(ctx: RouteContext, error: unknown, extra: ActionResult['cookies'] = []): ActionResult {
  if (!ctx.wantsJson && error instanceof AuthError) {
    return {
      status: 303,
      redirect: `${ctx.auth.config.pages.error}?error=${pageErrorCode(error.code)}`,
      cookies: extra,
    };
  }
  const result = errorResult(ctx, error);
  return { ...result, cookies: [...(result.cookies ?? []), ...extra] };
}

/**
 * `POST /signin/:provider` for an OAuth provider: redirect to its authorization endpoint (303, or JSON `{url}`),
 * with state, PKCE S256 and (OIDC) nonce kept in a sealed flow cookie (RFC 6749 §4.1.1, RFC 7636, OIDC Core
 * §3.1.2.1). `options.callbackPath` names another callback route under `basePath`.
 */
export async function oauthSignInAction(
  ctx: RouteContext,
  provider: OAuthProvider,
  options: OAuthFlowOptions = {},
): Promise<ActionResult> {
  const { auth } = ctx;
  const client = clientOf(provider);
  const callbackUrl = await resolveCallbackUrl(ctx, ctx.body.callbackUrl ?? ctx.url.searchParams.get('callbackUrl'));
  let start: Awaited<ReturnType<typeof authorizationUrl>>;
  try {
    start = await authorizationUrl(client, redirectUri(ctx, provider, options));
  } catch (error) {
    logFailure(auth, provider, 'authorization request', error);
    if (error instanceof AuthError) return failure(ctx, error); // the provider's own fetch refused
    return failure(ctx, authError('OAUTH_SIGNIN_ERROR', `Could not reach ${provider.name}`));
  }
  const cookie = await sealFlow(
    { provider: provider.id, ...start.checks, callbackUrl },
    auth.signingKey,
    flowOptions(auth, provider),
    auth.clock,
  );
  if (ctx.wantsJson) return { status: 200, json: { url: start.url.href }, cookies: [cookie] };
  return { status: 303, redirect: start.url.href, cookies: [cookie] };
}

function checkProfile(value: unknown): UserProfile {
  const p = value as UserProfile | null;
  const id = p && (typeof p.id === 'string' || typeof p.id === 'number') ? String(p.id) : '';
  if (!id) throw authError('OAUTH_CALLBACK_ERROR', 'The provider profile has no id');
  return checkIdpProfile({ ...p, id });
}

/**
 * Whether this sign-in proves the user owns their email: the provider is
 * trusted for emails (`trustEmail`) and reports this very address verified.
 */
function provesEmail(provider: OAuthProvider, profile: UserProfile, userEmail: string | null | undefined): boolean {
  if (!provider.trustEmail || !profile.emailVerified || !profile.email || !userEmail) return false;
  return profile.email.trim().toLowerCase() === userEmail.trim().toLowerCase();
}

/**
 * `GET|POST /callback/:provider` for an OAuth provider: checks the flow cookie, exchanges the code (ID token
 * validated for OIDC), reads the profile and ends in `completeSignIn` under the OAuth account rules. Errors go to
 * the error page (browsers) or a JSON error. `runtime`: as `options` of {@link oauthSignInAction}, plus `afterPersist`.
 */
export async function oauthCallbackAction(
  ctx: RouteContext,
  provider: OAuthProvider,
  runtime: OAuthFlowOptions = {},
): Promise<ActionResult> {
  const { auth } = ctx;
  const options = flowOptions(auth, provider);
  const clear = [clearFlow(provider.id, options)];
  try {
    const flow = await openFlow(
      ctx.cookies[flowCookieName(provider.id, options.secure)],
      provider.id,
      auth.signingKey,
      auth.clock,
    );
    if (!flow) throw callbackError('The sign-in flow expired or was started in another browser. Please try again.');
    const client = clientOf(provider);
    const params = ctx.request.method === 'POST' ? new URLSearchParams(ctx.body) : ctx.url.searchParams;

    let tokens;
    try {
      tokens = await exchangeCode(client, params, flow, redirectUri(ctx, provider, runtime));
    } catch (error) {
      if (isAccessDenied(error)) throw authError('ACCESS_DENIED', 'The provider denied the sign-in');
      logFailure(auth, provider, 'code exchange', error);
      if (error instanceof AuthError) throw error; // the provider's own fetch refused (e.g. SSO_ISSUER_NOT_ALLOWED)
      throw callbackError();
    }
    const profileCtx = { callbackParams: params, fetch: client.fetch };
    let raw;
    try {
      raw = await fetchProfile(client, tokens, profileCtx);
    } catch (error) {
      logFailure(auth, provider, 'profile request', error);
      if (error instanceof AuthError) throw error; // OAUTH_USERINFO_FAILED / OAUTH_USERINFO_MISMATCH
      throw callbackError();
    }
    const profile = checkProfile(
      await callUser(auth, 'profile function', () => provider.profile(raw, tokens, profileCtx)),
    );

    const adapter = auth.adapter!;
    // Fresh: a session revoked elsewhere must not link a new account.
    const current = await auth.readSession(ctx.request, { fresh: true });
    const plan = await planOAuthSignIn(adapter, provider, profile, current.user?.id ?? null);
    const account = accountFrom(provider, plan.user.id, profile.id, tokens, ctx.auth.clock.now());
    return await completeSignIn(ctx, {
      user: plan.user,
      account,
      profile: raw,
      emailProven: provesEmail(provider, profile, plan.user.email),
      isNewUser: plan.kind === 'create',
      callbackUrl: flow.callbackUrl,
      persist: async () => {
        const user = await applyOAuthSignIn(adapter, plan, account);
        await runtime.afterPersist?.(user, raw);
        return user;
      },
      cookies: clear,
    });
  } catch (error) {
    return failure(ctx, error, clear);
  }
}

/**
 * The OAuth 2.0 / OIDC flow, attached to every provider `createOAuth2Provider` and the presets build: the
 * authorization code flow at the core's routes, and the refresh behind `auth.getAccessToken`.
 */
export const oauthFlow: SignInFlow<OAuthProvider> = {
  signIn: oauthSignInAction,
  callback: oauthCallbackAction,
  refresh: (provider, refreshToken) => refreshTokens(clientOf(provider), refreshToken),
};
