/**
 * The endpoints that read tokens: UserInfo (OpenID Connect Core 1.0 §5.3, Bearer per RFC 6750), revocation
 * (RFC 7009) and introspection (RFC 7662).
 * @module
 * @internal
 */
import { sha256Hex, storageOf, type ActionResult, type RouteContext } from '../../plugin-kit.js';
import { claimsFor } from './claims.js';
import { NO_STORE, OAuthError } from './oauth-error.js';
import type { AccessTokenClaims } from './signer.js';
import type { TokenDeps } from './token.js';
import type { GrantRecord, RefreshTokenRecord } from './types.js';

/** A live grant: stored, not revoked, for the same client and user as the token says. */
async function liveGrant(deps: TokenDeps, id: string, clientId: string, sub?: string): Promise<GrantRecord | null> {
  const grant = await deps.o.storage.getGrant(id);
  if (!grant || grant.revokedAt || grant.clientId !== clientId || (sub !== undefined && grant.userId !== sub))
    return null;
  return grant;
}

/** The access token's claims when it is ours, unexpired, and its grant is live; else null. */
async function liveAccessToken(deps: TokenDeps, token: string): Promise<AccessTokenClaims | null> {
  const claims = await deps.signer().verifyAccessToken(token);
  if (!claims) return null;
  return (await liveGrant(deps, claims.grantId, claims.clientId, claims.sub)) ? claims : null;
}

/** The refresh token's record and grant when it is current (not rotated, unexpired) and its grant live; else null. */
async function liveRefreshToken(
  ctx: RouteContext,
  deps: TokenDeps,
  token: string,
): Promise<{ record: RefreshTokenRecord; grant: GrantRecord } | null> {
  const record = await deps.o.storage.getRefreshToken(await sha256Hex(token));
  if (!record || record.rotatedAt || record.expiresAt.getTime() <= ctx.auth.clock.now()) return null;
  const grant = await deps.o.storage.getGrant(record.grantId);
  return grant && !grant.revokedAt ? { record, grant } : null;
}

const bearerError = (error: string, description: string, status = 401) =>
  new OAuthError(error, description, status, {
    'www-authenticate': `Bearer error="${error}", error_description="${description}"`,
  });

/** `GET`/`POST /oauth2/userinfo` with `Authorization: Bearer <access token>`. */
export async function userinfo(ctx: RouteContext, deps: TokenDeps): Promise<ActionResult> {
  const match = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/i.exec(ctx.request.headers.get('authorization')?.trim() ?? '');
  if (!match)
    throw new OAuthError('invalid_request', 'A Bearer access token is required', 401, { 'www-authenticate': 'Bearer' });
  const claims = await liveAccessToken(deps, match[1]!);
  if (!claims) throw bearerError('invalid_token', 'The access token is invalid, expired or revoked');
  if (!claims.scopes.includes('openid')) throw bearerError('insufficient_scope', 'The openid scope is required', 403);
  const user = await storageOf(ctx).getUser(claims.sub);
  if (!user) throw bearerError('invalid_token', 'The access token is invalid, expired or revoked');
  return { status: 200, json: claimsFor(user, claims.scopes), headers: { ...NO_STORE } };
}

/** `POST /oauth2/revoke {token, token_type_hint?}`: ends the token's grant when it belongs to the client; 200 always. */
export async function revoke(ctx: RouteContext, deps: TokenDeps): Promise<ActionResult> {
  const client = await deps.clients.authenticate(ctx);
  const token = ctx.body.token;
  if (!token) throw new OAuthError('invalid_request', 'token is required');
  const now = new Date(ctx.auth.clock.now());
  const record = await deps.o.storage.getRefreshToken(await sha256Hex(token));
  const grantId = record ? record.grantId : (await deps.signer().verifyAccessToken(token))?.grantId;
  if (grantId !== undefined) {
    const grant = await deps.o.storage.getGrant(grantId);
    // Another client's token is left alone, and the answer does not tell (RFC 7009 §2.1).
    if (grant && grant.clientId === client.id) await deps.o.storage.revokeGrant(grant.id, now);
  }
  return { status: 200, json: {}, headers: { ...NO_STORE } };
}

/** `POST /oauth2/introspect {token}` by a confidential client: `{active: false}` or the token's claims. */
export async function introspect(ctx: RouteContext, deps: TokenDeps): Promise<ActionResult> {
  const client = await deps.clients.authenticate(ctx);
  if (client.public) throw new OAuthError('invalid_client', 'Introspection needs a confidential client', 401);
  const token = ctx.body.token;
  if (!token) throw new OAuthError('invalid_request', 'token is required');
  const issuer = deps.signer().issuer;
  const inactive: ActionResult = { status: 200, json: { active: false }, headers: { ...NO_STORE } };
  const hint = ctx.body.token_type_hint;
  const refresh = hint === 'access_token' ? null : await liveRefreshToken(ctx, deps, token);
  if (refresh) {
    const { grant, record } = refresh;
    return {
      status: 200,
      json: {
        active: true,
        token_type: 'refresh_token',
        client_id: grant.clientId,
        sub: grant.userId,
        scope: grant.scopes.join(' '),
        exp: Math.floor(record.expiresAt.getTime() / 1000),
        iss: issuer,
      },
      headers: { ...NO_STORE },
    };
  }
  const access = await liveAccessToken(deps, token);
  if (!access) return inactive;
  return {
    status: 200,
    json: {
      active: true,
      token_type: 'Bearer',
      client_id: access.clientId,
      sub: access.sub,
      scope: access.scopes.join(' '),
      iat: access.iat,
      exp: access.exp,
      iss: issuer,
      aud: issuer,
    },
    headers: { ...NO_STORE },
  };
}
