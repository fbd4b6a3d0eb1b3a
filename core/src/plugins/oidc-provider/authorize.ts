/**
 * `GET /oauth2/authorize`: the authorization endpoint of the code flow (RFC 6749 §4.1.1, OpenID Connect Core 1.0
 * §3.1.2) with PKCE S256 required (RFC 7636, RFC 9700 §2.1.1), and `POST /oauth2/consent`, the consent page's
 * answer.
 * @module
 * @internal
 */
import {
  AuthError,
  csrfFor,
  impersonationRestricted,
  pageLocale,
  randomString,
  seal,
  sha256Hex,
  signedIn,
  unseal,
  type ActionResult,
  type Caller,
  type RouteContext,
} from '../../plugin-kit.js';
import { readAmr } from './amr.js';
import type { Clients } from './clients.js';
import { oidcError } from './errors.js';
import type { ResolvedOidcProviderOptions } from './options.js';
import { consentPage } from './pages.js';
import { clearReauth, pendingReauth, reauthCookie } from './reauth.js';
import type { OidcClientRecord } from './types.js';

/** A checked authorization request. */
interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  state: string | null;
  nonce: string | null;
  scopes: string[];
  codeChallenge: string;
}

const CONSENT_PURPOSE = 'oidc-consent';
/** How long a consent page may be answered, in seconds. */
const CONSENT_TTL = 600;
const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/** A redirect back to the client with `params` (and `iss`, RFC 9207). */
function back(redirectUri: string, params: Record<string, string | null>, issuer: string): ActionResult {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v);
  url.searchParams.set('iss', issuer);
  return { status: 303, redirect: url.href, headers: { 'cache-control': 'no-store' } };
}

const withCookies = (result: ActionResult, cookies: ActionResult['cookies'] = []): ActionResult =>
  cookies.length ? { ...result, cookies: [...(result.cookies ?? []), ...cookies] } : result;

class Refusal extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
  ) {
    super(description);
  }
}

/** The deps of the authorization routes. */
export interface AuthorizeDeps {
  o: ResolvedOidcProviderOptions;
  clients: Clients;
  issuer: () => string;
}

/** Reads the caller's session, or null when signed out. */
async function callerOf(ctx: RouteContext): Promise<Caller | null> {
  try {
    return await signedIn(ctx);
  } catch (error) {
    if (error instanceof AuthError && error.code === 'UNAUTHENTICATED') return null;
    throw error;
  }
}

function checkParams(p: URLSearchParams, client: OidcClientRecord, o: ResolvedOidcProviderOptions) {
  if (p.get('response_type') !== 'code')
    throw new Refusal('unsupported_response_type', 'Only response_type=code is supported');
  if (p.has('request') || p.has('request_uri'))
    throw new Refusal('request_not_supported', 'Request objects are not supported');
  const scopes = [...new Set((p.get('scope') ?? '').split(' ').filter(Boolean))];
  if (scopes.length === 0) throw new Refusal('invalid_scope', 'scope is required');
  for (const s of scopes)
    if (!o.scopes.includes(s) || !client.scopes.includes(s))
      throw new Refusal('invalid_scope', `The scope ${s} is not available to this client`);
  const challenge = p.get('code_challenge') ?? '';
  if (p.get('code_challenge_method') !== 'S256' || !PKCE_CHALLENGE.test(challenge))
    throw new Refusal('invalid_request', 'PKCE is required: code_challenge with code_challenge_method=S256');
  const prompt = new Set((p.get('prompt') ?? '').split(' ').filter(Boolean));
  for (const v of prompt)
    if (v !== 'none' && v !== 'login' && v !== 'consent')
      throw new Refusal('invalid_request', `prompt=${v} is not supported`);
  if (prompt.has('none') && prompt.size > 1) throw new Refusal('invalid_request', 'prompt=none stands alone');
  const maxAgeText = p.get('max_age');
  const maxAge = maxAgeText === null ? null : /^\d{1,9}$/.test(maxAgeText) ? Number(maxAgeText) : NaN;
  if (Number.isNaN(maxAge)) throw new Refusal('invalid_request', 'max_age must be a number of seconds');
  const nonce = p.get('nonce');
  if (nonce !== null && (nonce.length === 0 || nonce.length > 512))
    throw new Refusal('invalid_request', 'nonce is malformed');
  return { scopes, challenge, prompt, maxAge, nonce };
}

/** Issues a code for `req` to the signed-in `caller` and sends the browser back to the client. */
async function issueCode(
  ctx: RouteContext,
  deps: AuthorizeDeps,
  req: AuthorizationRequest,
  caller: Caller,
): Promise<ActionResult> {
  const code = randomString(32);
  const now = ctx.auth.clock.now();
  const { amr, acr } = await readAmr(ctx, caller.user.id);
  // Expired codes and refresh tokens go as new codes come (both kept until expiry so a replay is recognised).
  await deps.o.storage.prune(new Date(now));
  await deps.o.storage.putCode({
    codeHash: await sha256Hex(code),
    clientId: req.clientId,
    userId: caller.user.id,
    redirectUri: req.redirectUri,
    codeChallenge: req.codeChallenge,
    nonce: req.nonce,
    scopes: req.scopes,
    authTime: caller.authTime ?? new Date(now),
    amr,
    acr,
    grantId: randomString(16),
    expiresAt: new Date(now + deps.o.codeTtl * 1000),
  });
  const result = back(req.redirectUri, { code, state: req.state }, deps.issuer());
  return { ...result, cookies: caller.cookies };
}

/**
 * The sign-in page, coming back to this very request (`prompt` and `max_age` kept). When `fresh`, a sealed cookie
 * binds the request to a sign-in at or after now, so editing the URL on the way back cannot skip it.
 */
async function toSignIn(ctx: RouteContext, req: AuthorizationRequest, fresh: boolean): Promise<ActionResult> {
  const back = `${ctx.url.pathname}${ctx.url.search}`;
  return {
    status: 303,
    redirect: `${ctx.auth.config.pages.signIn}?callbackUrl=${encodeURIComponent(back)}`,
    cookies: fresh ? [await reauthCookie(ctx, req, ctx.auth.clock.now())] : [],
  };
}

/** `GET /oauth2/authorize`. */
export async function authorize(ctx: RouteContext, deps: AuthorizeDeps): Promise<ActionResult> {
  const p = ctx.url.searchParams;
  const client = await deps.clients.find(p.get('client_id') ?? '');
  if (!client) throw oidcError('OIDC_CLIENT_UNKNOWN');
  const redirectUri = p.get('redirect_uri') ?? '';
  // Exact match against the registered list only: never a prefix, never normalised (RFC 9700 §4.1.3).
  if (!client.redirectUris.includes(redirectUri)) throw oidcError('OIDC_REDIRECT_URI_INVALID');
  const state = p.get('state');
  try {
    const { scopes, challenge, prompt, maxAge, nonce } = checkParams(p, client, deps.o);
    const req: AuthorizationRequest = {
      clientId: client.id,
      redirectUri,
      state,
      nonce,
      scopes,
      codeChallenge: challenge,
    };
    const caller = await callerOf(ctx);
    const now = ctx.auth.clock.now();
    if (!caller) {
      if (prompt.has('none')) throw new Refusal('login_required', 'The user is not signed in');
      return await toSignIn(ctx, req, prompt.has('login') || maxAge !== null);
    }
    // An admin acting as the user (admin()) does not hand the user's account to an application: its tokens would
    // outlive the impersonation.
    if (caller.impersonatedBy !== undefined) throw impersonationRestricted();
    const authTime = caller.authTime?.getTime() ?? 0;
    // The fresh sign-in this request was sent for, if any (bound server-side; the URL cannot lower it).
    const after = await pendingReauth(ctx, req);
    const tooOld = maxAge !== null && now - authTime > maxAge * 1000;
    const reauthenticated = after !== null && authTime >= after;
    if ((prompt.has('login') || tooOld || after !== null) && !reauthenticated) {
      if (prompt.has('none')) throw new Refusal('login_required', 'A fresh sign-in is required');
      return await toSignIn(ctx, req, true);
    }
    const done = after !== null ? [clearReauth(ctx)] : [];
    if (!client.skipConsent) {
      const stored = await deps.o.storage.getConsent(caller.user.id, client.id);
      const covered = stored !== null && scopes.every((s) => stored.scopes.includes(s));
      if (!covered || prompt.has('consent')) {
        if (prompt.has('none')) throw new Refusal('consent_required', 'The user has not allowed this client');
        return withCookies(await showConsent(ctx, client, req, caller), done);
      }
    }
    return withCookies(await issueCode(ctx, deps, req, caller), done);
  } catch (error) {
    if (error instanceof Refusal)
      return back(redirectUri, { error: error.error, error_description: error.description, state }, deps.issuer());
    throw error;
  }
}

async function showConsent(
  ctx: RouteContext,
  client: OidcClientRecord,
  req: AuthorizationRequest,
  caller: Caller,
): Promise<ActionResult> {
  const csrf = await csrfFor(ctx);
  const sealed = await seal(
    { ...req, userId: caller.user.id },
    ctx.auth.signingKey,
    CONSENT_PURPOSE,
    CONSENT_TTL,
    ctx.auth.clock,
  );
  return {
    status: 200,
    html: consentPage({
      action: `${ctx.auth.config.basePath}/oauth2/consent`,
      csrfToken: csrf.token,
      clientName: client.name,
      scopes: req.scopes,
      request: sealed,
      userLabel: caller.user.email ?? caller.user.name ?? caller.user.id,
      locale: pageLocale(ctx),
    }),
    headers: {
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
      'content-security-policy': "frame-ancestors 'none'",
    },
    cookies: [...caller.cookies, ...(csrf.cookie ? [csrf.cookie] : [])],
  };
}

/** `POST /oauth2/consent {request, decision}`: Allow stores the consent and issues the code; Deny answers access_denied. */
export async function consent(ctx: RouteContext, deps: AuthorizeDeps): Promise<ActionResult> {
  const caller = await callerOf(ctx);
  const sealed = await unseal(ctx.body.request, ctx.auth.signingKey, CONSENT_PURPOSE, ctx.auth.clock);
  if (!caller || !sealed || sealed.userId !== caller.user.id) throw oidcError('OIDC_REQUEST_INVALID');
  if (caller.impersonatedBy !== undefined) throw impersonationRestricted();
  const req = sealed as unknown as AuthorizationRequest;
  const client = await deps.clients.find(req.clientId);
  if (!client || !client.redirectUris.includes(req.redirectUri)) throw oidcError('OIDC_REQUEST_INVALID');
  if (ctx.body.decision !== 'allow')
    return back(
      req.redirectUri,
      { error: 'access_denied', error_description: 'The user denied access', state: req.state },
      deps.issuer(),
    );
  const stored = await deps.o.storage.getConsent(caller.user.id, client.id);
  await deps.o.storage.putConsent({
    userId: caller.user.id,
    clientId: client.id,
    scopes: [...new Set([...(stored?.scopes ?? []), ...req.scopes])],
    createdAt: stored?.createdAt ?? new Date(ctx.auth.clock.now()),
  });
  return issueCode(ctx, deps, req, caller);
}
