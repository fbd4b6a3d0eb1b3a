/**
 * The token endpoint (`POST /oauth2/token`, RFC 6749 §3.2): `authorization_code` with PKCE (RFC 7636 §4.6) and
 * `refresh_token` with rotation and reuse detection (RFC 9700 §4.14.2).
 * @module
 * @internal
 */
import {
  randomString,
  sha256Hex,
  storageOf,
  timingSafeEqual,
  toBase64Url,
  type ActionResult,
  type RouteContext,
} from '../../plugin-kit.js';
import { claimsFor } from './claims.js';
import type { Clients } from './clients.js';
import { NO_STORE, OAuthError } from './oauth-error.js';
import type { ResolvedOidcProviderOptions } from './options.js';
import type { Signer } from './signer.js';
import type { GrantRecord, OidcClientRecord } from './types.js';

/** The deps of the OAuth endpoints. */
export interface TokenDeps {
  o: ResolvedOidcProviderOptions;
  clients: Clients;
  signer: () => Signer;
}

const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const invalidGrant = (why: string) => new OAuthError('invalid_grant', why);

/** `BASE64URL(SHA256(ASCII(code_verifier)))` (RFC 7636 §4.2). */
async function s256(verifier: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

/**
 * Issues an access token, a new refresh token in the grant's family when the grant holds `offline_access`, and an ID
 * token for `openid`.
 */
async function issue(
  ctx: RouteContext,
  deps: TokenDeps,
  grant: GrantRecord,
  scopes: readonly string[],
  nonce: string | null,
): Promise<ActionResult> {
  const user = await storageOf(ctx).getUser(grant.userId);
  if (!user) throw invalidGrant('The user of this grant no longer exists');
  const signer = deps.signer();
  const access = await signer.accessToken({ userId: user.id, clientId: grant.clientId, grantId: grant.id, scopes });
  const now = ctx.auth.clock.now();
  const json: Record<string, unknown> = {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: access.expiresIn,
    scope: scopes.join(' '),
  };
  // A refresh token only for a grant that holds offline_access (OpenID Connect Core 1.0 §11): the client was allowed
  // that scope and the person's consent listed it (or the client skips consent). A refresh that narrows the scope
  // keeps the grant's family going.
  if (grant.scopes.includes('offline_access')) {
    const refreshToken = randomString(32);
    await deps.o.storage.putRefreshToken({
      tokenHash: await sha256Hex(refreshToken),
      grantId: grant.id,
      expiresAt: new Date(now + deps.o.refreshTokenTtl * 1000),
      rotatedAt: null,
    });
    json.refresh_token = refreshToken;
  }
  if (scopes.includes('openid'))
    json.id_token = await signer.idToken({
      clientId: grant.clientId,
      userId: user.id,
      nonce,
      authTime: grant.authTime,
      amr: grant.amr,
      acr: grant.acr,
      accessToken: access.token,
      claims: claimsFor(user, scopes),
    });
  return { status: 200, json, headers: { ...NO_STORE } };
}

async function authorizationCode(ctx: RouteContext, deps: TokenDeps, client: OidcClientRecord): Promise<ActionResult> {
  const { code, redirect_uri: redirectUri, code_verifier: verifier } = ctx.body;
  if (!code) throw new OAuthError('invalid_request', 'code is required');
  const used = await deps.o.storage.consumeCode(await sha256Hex(code));
  if (!used) throw invalidGrant('The code is invalid');
  const record = used.code;
  const now = ctx.auth.clock.now();
  if (used.replayed) {
    // A code used twice was stolen or leaked: the tokens its first use issued are revoked (RFC 6749 §4.1.2).
    await deps.o.storage.revokeGrant(record.grantId, new Date(now));
    throw invalidGrant('The code was used already');
  }
  if (record.clientId !== client.id) {
    await deps.o.storage.revokeGrant(record.grantId, new Date(now));
    throw invalidGrant('The code was issued to another client');
  }
  if (record.expiresAt.getTime() <= now) throw invalidGrant('The code has expired');
  if (redirectUri !== record.redirectUri) throw invalidGrant('redirect_uri does not match the authorization request');
  if (!verifier || !VERIFIER.test(verifier) || !timingSafeEqual(await s256(verifier), record.codeChallenge))
    throw invalidGrant('The code_verifier does not match the code_challenge');
  const grant: GrantRecord = {
    id: record.grantId,
    clientId: client.id,
    userId: record.userId,
    scopes: record.scopes,
    authTime: record.authTime,
    amr: record.amr,
    acr: record.acr,
    createdAt: new Date(now),
    revokedAt: null,
  };
  await deps.o.storage.createGrant(grant);
  return issue(ctx, deps, grant, grant.scopes, record.nonce);
}

async function refreshToken(ctx: RouteContext, deps: TokenDeps, client: OidcClientRecord): Promise<ActionResult> {
  const token = ctx.body.refresh_token;
  if (!token) throw new OAuthError('invalid_request', 'refresh_token is required');
  const hash = await sha256Hex(token);
  const record = await deps.o.storage.getRefreshToken(hash);
  if (!record) throw invalidGrant('The refresh token is invalid');
  const grant = await deps.o.storage.getGrant(record.grantId);
  const now = ctx.auth.clock.now();
  if (!grant || grant.clientId !== client.id) throw invalidGrant('The refresh token is invalid');
  if (grant.revokedAt) throw invalidGrant('The refresh token was revoked');
  if (record.rotatedAt || !(await deps.o.storage.rotateRefreshToken(hash, new Date(now)))) {
    // A rotated token presented again: one of its holders is not the client. The whole family ends (RFC 9700 §4.14.2).
    await deps.o.storage.revokeGrant(grant.id, new Date(now));
    throw invalidGrant('The refresh token was used already');
  }
  if (record.expiresAt.getTime() <= now) throw invalidGrant('The refresh token has expired');
  let scopes = grant.scopes;
  if (ctx.body.scope !== undefined) {
    scopes = [...new Set(ctx.body.scope.split(' ').filter(Boolean))];
    if (scopes.length === 0 || scopes.some((s) => !grant.scopes.includes(s)))
      throw new OAuthError('invalid_scope', 'A refresh may only narrow the granted scopes');
  }
  return issue(ctx, deps, grant, scopes, null);
}

/** `POST /oauth2/token`. */
export async function tokenEndpoint(ctx: RouteContext, deps: TokenDeps): Promise<ActionResult> {
  const client = await deps.clients.authenticate(ctx);
  switch (ctx.body.grant_type) {
    case 'authorization_code':
      return authorizationCode(ctx, deps, client);
    case 'refresh_token':
      return refreshToken(ctx, deps, client);
    case undefined:
      throw new OAuthError('invalid_request', 'grant_type is required');
    default:
      throw new OAuthError('unsupported_grant_type', 'Only authorization_code and refresh_token are supported');
  }
}
