/**
 * `POST /oauth2/register` (RFC 7591 Dynamic Client Registration), served only with
 * `oidcProvider({ dynamicRegistration })`: a client registers its own metadata and gets a `client_id` (and, when
 * confidential, a `client_secret` shown once and stored only as its SHA-256). No registration access token is
 * issued: there is no read, update or delete endpoint (RFC 7592).
 * @module
 * @internal
 */
import {
  AuthConfigError,
  sha256Hex,
  timingSafeEqual,
  type ActionResult,
  type RouteContext,
  type RouteRateLimit,
} from '../../plugin-kit.js';
import type { Clients } from './clients.js';
import { NO_STORE, OAuthError } from './oauth-error.js';
import type { ResolvedOidcProviderOptions } from './options.js';

/** The client authentication methods a registered client may choose (RFC 7591 §2); default `client_secret_basic`. */
export const REGISTRATION_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'none'] as const;
const GRANT_TYPES = ['authorization_code', 'refresh_token'];
const RESPONSE_TYPES = ['code'];
const MAX_REDIRECT_URIS = 10;
const MAX_NAME = 200;

const metadataError = (description: string) => new OAuthError('invalid_client_metadata', description);
const redirectError = (description: string) => new OAuthError('invalid_redirect_uri', description);

/** Loopback IP literals (RFC 8252 §7.3: native apps listen on them over plain http; `localhost` is not one). */
const LOOPBACK = new Set(['127.0.0.1', '[::1]']);

/**
 * Checks one redirect URI: absolute, `https`, or `http` on a loopback IP literal (RFC 8252 §7.3); no fragment
 * (RFC 6749 §3.1.2), no wildcard, no credentials.
 * @throws OAuthError `invalid_redirect_uri`.
 */
function checkRedirectUri(uri: unknown): string {
  if (typeof uri !== 'string' || uri.length > 2000) throw redirectError('redirect_uris must be URL strings');
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw redirectError(`Malformed redirect URI ${JSON.stringify(uri)}`);
  }
  if (uri.includes('#')) throw redirectError('A redirect URI must not carry a fragment');
  if (uri.includes('*')) throw redirectError('A redirect URI must not carry a wildcard');
  if (url.username || url.password) throw redirectError('A redirect URI must not carry credentials');
  const https = url.protocol === 'https:';
  const loopback = url.protocol === 'http:' && LOOPBACK.has(url.hostname);
  if (!https && !loopback)
    throw redirectError('A redirect URI must be https, or http on a loopback IP literal (127.0.0.1, [::1])');
  return uri;
}

/** A list of strings from `value` (or `fallback` when absent), each one of `allowed`. */
function listOf(name: string, value: unknown, fallback: string[], allowed: readonly string[]): string[] {
  if (value === undefined) return fallback;
  if (!Array.isArray(value) || value.length === 0 || value.some((v) => typeof v !== 'string'))
    throw metadataError(`${name} must be a non-empty list of strings`);
  for (const v of value as string[])
    if (!allowed.includes(v)) throw metadataError(`${name}: ${JSON.stringify(v)} is not supported`);
  return [...new Set(value as string[])];
}

/** The registration request's metadata, checked (RFC 7591 §2, §3.2.2); unknown fields are ignored (§2). */
export function parseRegistration(body: unknown, scopes: readonly string[]) {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw metadataError('The body must be a JSON object of client metadata');
  const m = body as Record<string, unknown>;
  if (!Array.isArray(m.redirect_uris) || m.redirect_uris.length === 0)
    throw redirectError('redirect_uris is required: a non-empty list of URLs');
  if (m.redirect_uris.length > MAX_REDIRECT_URIS)
    throw redirectError(`At most ${MAX_REDIRECT_URIS} redirect URIs may be registered`);
  const redirectUris = [...new Set(m.redirect_uris.map(checkRedirectUri))];
  const method = m.token_endpoint_auth_method ?? 'client_secret_basic';
  if (typeof method !== 'string' || !(REGISTRATION_AUTH_METHODS as readonly string[]).includes(method))
    throw metadataError(`token_endpoint_auth_method must be one of ${REGISTRATION_AUTH_METHODS.join(', ')}`);
  const grantTypes = listOf('grant_types', m.grant_types, ['authorization_code'], GRANT_TYPES);
  if (!grantTypes.includes('authorization_code')) throw metadataError('grant_types must include authorization_code');
  const responseTypes = listOf('response_types', m.response_types, ['code'], RESPONSE_TYPES);
  if (m.scope !== undefined && typeof m.scope !== 'string') throw metadataError('scope must be a string');
  const asked = m.scope === undefined ? [...scopes] : [...new Set(m.scope.split(' ').filter(Boolean))];
  for (const s of asked) if (!scopes.includes(s)) throw metadataError(`Unknown scope ${JSON.stringify(s)}`);
  if (!asked.includes('openid')) throw metadataError('scope must include openid');
  if (m.client_name !== undefined && (typeof m.client_name !== 'string' || !m.client_name.trim()))
    throw metadataError('client_name must be a non-empty string');
  const name = (m.client_name as string | undefined)?.trim().slice(0, MAX_NAME) ?? new URL(redirectUris[0]!).host;
  return { redirectUris, method, grantTypes, responseTypes, scopes: asked, name };
}

/**
 * With an initial access token configured: the request must carry `Authorization: Bearer <token>` (compared in
 * constant time over SHA-256 digests).
 * @throws OAuthError `invalid_token` (401) otherwise (RFC 6750 §3.1).
 */
async function checkInitialAccessToken(request: Request, expected: string | undefined): Promise<void> {
  if (expected === undefined) return;
  const match = /^Bearer ([\x21-\x7e]+)$/i.exec(request.headers.get('authorization')?.trim() ?? '');
  const ok = match !== null && timingSafeEqual(await sha256Hex(match[1]!), await sha256Hex(expected));
  if (!ok)
    throw new OAuthError('invalid_token', 'A valid initial access token is required', 401, {
      'www-authenticate': match ? 'Bearer error="invalid_token"' : 'Bearer',
    });
}

/** `POST /oauth2/register`: checks the metadata, registers the client, answers 201 with its credentials. */
export async function registerEndpoint(
  ctx: RouteContext,
  deps: { o: ResolvedOidcProviderOptions; clients: Clients; initialAccessToken: string | undefined },
): Promise<ActionResult> {
  await checkInitialAccessToken(ctx.request, deps.initialAccessToken);
  const m = parseRegistration(ctx.json, deps.o.scopes);
  let created: Awaited<ReturnType<Clients['create']>>;
  try {
    created = await deps.clients.create({
      name: m.name,
      redirectUris: m.redirectUris,
      scopes: m.scopes,
      public: m.method === 'none',
    });
  } catch (e) {
    if (e instanceof AuthConfigError) throw metadataError('The client metadata is not acceptable');
    throw e;
  }
  const { client, clientSecret } = created;
  return {
    status: 201,
    headers: { ...NO_STORE },
    json: {
      client_id: client.id,
      ...(clientSecret ? { client_secret: clientSecret, client_secret_expires_at: 0 } : {}),
      client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
      client_name: client.name,
      redirect_uris: client.redirectUris,
      token_endpoint_auth_method: m.method,
      grant_types: m.grantTypes,
      response_types: m.responseTypes,
      scope: client.scopes.join(' '),
    },
  };
}

/** Registration is counted per client IP on the `login` limiter (none when rate limiting is off). */
export function registrationRateLimit(ctx: RouteContext): RouteRateLimit | undefined {
  const limiter = ctx.auth.limiters.login;
  return limiter ? { limiter, mode: 'count', identifier: '' } : undefined;
}
