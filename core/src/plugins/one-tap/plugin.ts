/**
 * `oneTap()`: sign in with the ID token Google's One Tap / "Sign in with Google" hands the page.
 * @module
 */
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import {
  AuthConfigError,
  applyOAuthSignIn,
  completeSignIn,
  expiredCookie,
  planOAuthSignIn,
  randomString,
  resolveCallbackUrl,
  seal,
  storageOf,
  timingSafeEqual,
  unseal,
  type Action,
  type AuthPlugin,
  type OutCookie,
  type PluginRoute,
  type RouteContext,
} from '../../plugin-kit.js';
import { ONE_TAP_ERRORS, oneTapError, type OneTapErrorCode } from './errors.js';
import { spendOnce } from './spent.js';

/** Google's JWKS, the default `jwksUrl`. */
export const GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
/** The issuers Google's ID tokens carry, the default `issuers`. */
export const GOOGLE_ISSUERS: readonly string[] = ['https://accounts.google.com', 'accounts.google.com'];
/** The provider id one-tap sign-ins carry (`account.provider`), shared with the `google` OAuth provider. */
export const ONE_TAP_PROVIDER = 'google';

/** Options of `oneTap()`. */
export interface OneTapOptions {
  /** Your Google OAuth client id: the audience (`aud`) every token must carry. */
  clientId: string;
  /** Where the signing keys are (a JWKS). Default {@link GOOGLE_JWKS_URL}; tests point it at a local server. */
  jwksUrl?: string;
  /** The accepted `iss` values. Default {@link GOOGLE_ISSUERS}. */
  issuers?: readonly string[];
  /** Create a user when no account matches the Google user. Default true. */
  signUp?: boolean;
}

const NONCE_PURPOSE = 'one-tap-nonce';
/** How long a nonce from `GET /one-tap/nonce` is good for, in seconds. */
const NONCE_TTL = 600;
/** Clock skew allowed on `exp`, `iat` and `nbf`, in seconds. */
const CLOCK_TOLERANCE = 5;
const G_CSRF = 'g_csrf_token';
/** Longest ID token read, in characters. */
const MAX_TOKEN = 8192;

function isForm(request: Request): boolean {
  return (request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
}

/** Google's redirect-mode form post: protected by its double-submit `g_csrf_token` instead of the kit's token. */
function googleFormPost(ctx: RouteContext): boolean {
  return isForm(ctx.request) && Boolean(ctx.cookies[G_CSRF]);
}

function nonceCookieName(ctx: RouteContext): string {
  return `${ctx.auth.config.cookies.sessionToken.options.secure ? '__Host-' : ''}auth.one-tap-nonce`;
}

function nonceCookieOptions(ctx: RouteContext): OutCookie['options'] {
  const secure = ctx.auth.config.cookies.sessionToken.options.secure;
  // Google's redirect mode posts from accounts.google.com: a Lax cookie would not come along (needs https).
  return { httpOnly: true, secure, sameSite: secure ? 'none' : 'lax', path: '/' };
}

/**
 * Google sign-in with an ID token: `POST /one-tap/callback` takes the token Google's One Tap or "Sign in with
 * Google" button gives the page (`credential`, or JSON `idToken`), verifies it with jose against Google's JWKS
 * (RS256 only; `iss` one of `issuers`, `aud` = `clientId`, `exp` / `iat` / `nbf` on the auth's clock with 5 s of
 * tolerance; OpenID Connect Core 1.0 §3.1.3.7) and signs in through `completeSignIn` as provider `google`
 * (`providerAccountId` = `sub`), with the core OAuth sign-in's account rules: an account already linked signs in its
 * user, a signed-in caller links it to themselves (JSON posts), a user with the same email is linked (Google's verified email
 * is trusted, and a first proof of the email removes credentials set while it was unverified), else a user is
 * created when `signUp` allows.
 *
 * - CSRF: JSON posts carry the kit's CSRF token; Google's redirect-mode form post (`credential`, `g_csrf_token`)
 *   must carry a `g_csrf_token` cookie equal to its field (compared in constant time), else 403
 *   `ONE_TAP_CSRF_INVALID`.
 * - Nonce: `GET /one-tap/nonce` answers `{nonce}` and sets an HttpOnly cookie (10 min); pass the nonce to Google
 *   (`data-nonce`). While the cookie is there the token's `nonce` must equal it, and a token with a `nonce` needs
 *   the cookie. Each nonce and each token works once (401 `ONE_TAP_NONCE_INVALID` / `ONE_TAP_TOKEN_INVALID`),
 *   across every process sharing the database: a used one is kept as a SHA-256 hash in the adapter's verification
 *   tokens (identifiers `one-tap-token` / `one-tap-nonce`) until it expires, and `adapter.purgeExpired()` removes it.
 * - Refusals: 401 `ONE_TAP_TOKEN_INVALID`, 403 `ONE_TAP_EMAIL_UNVERIFIED` (no email, or `email_verified` not
 *   `true`), 403 `ONE_TAP_SIGN_UP_DISABLED`, `OAUTH_ACCOUNT_NOT_LINKED`; nothing is written. Each try counts on the
 *   `login` limiter per IP (`attempt` mode).
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for bad options; at `createAuth`, without an `adapter`.
 * @example
 * ```ts
 * import { createAuth, createMemoryAdapter } from '@framework/auth';
 * import { oneTap } from '@framework/auth/plugins/one-tap';
 *
 * const auth = createAuth({
 *   adapter: createMemoryAdapter(),
 *   providers: [],
 *   plugins: [oneTap({ clientId: process.env.GOOGLE_CLIENT_ID! })],
 * });
 * // Google's script: data-login_uri="https://app.example/auth/one-tap/callback", or POST {idToken} as JSON
 * ```
 */
export function oneTap(options: OneTapOptions): AuthPlugin<'oneTap', unknown, Record<never, never>, OneTapErrorCode> {
  const fail = (what: string) => new AuthConfigError(`Invalid auth config: oneTap(): ${what}`);
  if (!options || typeof options !== 'object') throw fail('needs an options object');
  if (typeof options.clientId !== 'string' || !options.clientId.trim()) throw fail('clientId must be a string');
  if (options.signUp !== undefined && typeof options.signUp !== 'boolean') throw fail('signUp must be a boolean');
  let jwksUrl: URL;
  try {
    jwksUrl = new URL(options.jwksUrl ?? GOOGLE_JWKS_URL);
  } catch {
    throw fail('jwksUrl must be a URL');
  }
  const issuers = [...(options.issuers ?? GOOGLE_ISSUERS)];
  if (issuers.length === 0 || issuers.some((i) => typeof i !== 'string' || !i)) throw fail('issuers must be strings');
  const signUp = options.signUp ?? true;
  const jwks = createRemoteJWKSet(jwksUrl);

  const refuse = async (ctx: RouteContext, code: OneTapErrorCode): Promise<never> => {
    await ctx.attempt?.failed();
    throw oneTapError(code);
  };

  async function verify(ctx: RouteContext, token: string): Promise<JWTPayload> {
    try {
      const { payload } = await jwtVerify(token, jwks, {
        issuer: issuers,
        audience: options.clientId,
        algorithms: ['RS256'],
        clockTolerance: CLOCK_TOLERANCE,
        currentDate: new Date(ctx.auth.clock.now()),
        requiredClaims: ['sub', 'exp', 'iat'],
      });
      return payload;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) {
        ctx.auth.logger.warn(`[auth] oneTap: token refused: ${error.code}`);
        return refuse(ctx, 'ONE_TAP_TOKEN_INVALID');
      }
      throw error;
    }
  }

  const callback: Action = async (ctx) => {
    const now = ctx.auth.clock.now();
    if (googleFormPost(ctx)) {
      const field = ctx.body[G_CSRF] ?? '';
      if (!field || !timingSafeEqual(field, ctx.cookies[G_CSRF] ?? '')) await refuse(ctx, 'ONE_TAP_CSRF_INVALID');
    }
    const token = ctx.body.credential ?? ctx.body.idToken ?? '';
    if (typeof token !== 'string' || !token || token.length > MAX_TOKEN) await refuse(ctx, 'ONE_TAP_TOKEN_INVALID');
    const claims = await verify(ctx, token);
    const sub = claims.sub!;
    if (typeof sub !== 'string' || !sub || sub.length > 255) return refuse(ctx, 'ONE_TAP_TOKEN_INVALID');

    const cookieName = nonceCookieName(ctx);
    const sealed = await unseal(ctx.cookies[cookieName], ctx.auth.signingKey, NONCE_PURPOSE, ctx.auth.clock);
    const expected = typeof sealed?.nonce === 'string' ? sealed.nonce : undefined;
    const nonce = claims.nonce;
    if (expected !== undefined || nonce !== undefined) {
      if (typeof nonce !== 'string' || expected === undefined || !timingSafeEqual(nonce, expected))
        return refuse(ctx, 'ONE_TAP_NONCE_INVALID');
    }

    const email = typeof claims.email === 'string' ? claims.email.trim() : '';
    if (!email || claims.email_verified !== true) return refuse(ctx, 'ONE_TAP_EMAIL_UNVERIFIED');

    const adapter = storageOf(ctx);
    // A signed-in caller links the Google account to themselves, as in OAuth, but only through the kit's CSRF token:
    // Google's double-submit cookie is weaker (a sibling subdomain can set it), so the form post never links.
    const current = googleFormPost(ctx) ? { user: null } : await ctx.auth.readSession(ctx.request, { fresh: true });
    const profile = {
      id: sub,
      email,
      name: typeof claims.name === 'string' ? claims.name : null,
      image: typeof claims.picture === 'string' ? claims.picture : null,
      emailVerified: new Date(now),
    };
    const plan = await planOAuthSignIn(
      adapter,
      { id: ONE_TAP_PROVIDER, trustEmail: true },
      profile,
      current.user?.id ?? null,
    );
    if (plan.kind === 'create' && !signUp) return refuse(ctx, 'ONE_TAP_SIGN_UP_DISABLED');

    // Used once, in every process sharing the database: the token (until it expires) and the nonce (until the
    // cookie would have).
    if (!(await spendOnce(adapter, 'token', token, new Date(((claims.exp ?? 0) + CLOCK_TOLERANCE) * 1000))))
      return refuse(ctx, 'ONE_TAP_TOKEN_INVALID');
    if (expected !== undefined && !(await spendOnce(adapter, 'nonce', expected, new Date(now + NONCE_TTL * 1000))))
      return refuse(ctx, 'ONE_TAP_NONCE_INVALID');

    const account = { userId: plan.user.id, type: 'oidc' as const, provider: ONE_TAP_PROVIDER, providerAccountId: sub };
    const emailProven = Boolean(plan.user.email) && plan.user.email!.trim().toLowerCase() === email.toLowerCase();
    const callbackUrl = ctx.body.callbackUrl ?? ctx.url.searchParams.get('callbackUrl') ?? undefined;
    return completeSignIn(ctx, {
      user: plan.user,
      account,
      profile: { ...claims },
      emailProven,
      isNewUser: plan.kind === 'create',
      callbackUrl: await resolveCallbackUrl(ctx, callbackUrl),
      persist: async () => (plan.kind === 'existing' ? plan.user : applyOAuthSignIn(adapter, plan, account)),
      cookies: expected !== undefined ? [expiredCookie(cookieName, nonceCookieOptions(ctx))] : [],
    });
  };

  const nonceRoute: Action = async (ctx) => {
    const nonce = randomString(24);
    const value = await seal({ nonce }, ctx.auth.signingKey, NONCE_PURPOSE, NONCE_TTL, ctx.auth.clock);
    return {
      status: 200,
      json: { nonce },
      headers: { 'cache-control': 'no-store' },
      cookies: [{ name: nonceCookieName(ctx), value, options: { ...nonceCookieOptions(ctx), maxAge: NONCE_TTL } }],
    };
  };

  const routes: Record<string, PluginRoute> = {
    'one-tap/callback': {
      POST: callback,
      csrfExempt: googleFormPost,
      rateLimit: (ctx) => {
        const { login } = ctx.auth.limiters;
        return login ? { limiter: login, mode: 'attempt', identifier: '' } : undefined;
      },
    },
    'one-tap/nonce': { GET: nonceRoute },
  };

  return {
    id: 'oneTap',
    init(auth) {
      if (!auth.adapter) throw new AuthConfigError('Invalid auth config: oneTap() needs `adapter` (users are stored)');
      return undefined;
    },
    routes,
    errorCodes: ONE_TAP_ERRORS,
  };
}
