/**
 * Options of `oidcProvider()` and their defaults.
 * @module
 */
import { AuthConfigError, adapterStorage, type AdapterStorage } from '../../plugin-kit.js';
import { createMemoryOidcProviderStorage } from './storage/memory.js';
import { createSqlOidcProviderStorage } from './storage/sql.js';
import type { OidcProviderStorage } from './types.js';

/** The scopes the provider knows, the default `scopes`. */
export const SUPPORTED_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;

/** A client the app registers in code (`clients` option, or `auth.extensions.oidcProvider.createClient`). */
export interface OidcClientOptions {
  /** The `client_id`: letters, digits, `.`, `_`, `-` (1–100). */
  clientId: string;
  /**
   * The client secret (at least 32 characters) for a confidential client (a server): it authenticates with
   * `client_secret_basic` or `client_secret_post`. Omit it for a public client (mobile app, CLI, single-page app):
   * it sends only `client_id` and relies on PKCE. Only its SHA-256 is kept.
   */
  clientSecret?: string;
  /** Shown on the consent page and in "Apps with access". */
  name: string;
  /** The exact redirect URIs (absolute, no fragment); an authorization request must name one of them exactly. */
  redirectUris: readonly string[];
  /** Where end-session may return the browser (exact match). Default none. */
  postLogoutRedirectUris?: readonly string[];
  /** The scopes the client may ask for. Default every scope of the provider. */
  scopes?: readonly string[];
  /** Skip the consent page (a first-party client the app trusts). Default false. */
  skipConsent?: boolean;
}

/**
 * A client registered at run time (`auth.extensions.oidcProvider.createClient`): as {@link OidcClientOptions}, with
 * the id generated when omitted and the secret always generated (`public: true` for a client without one).
 */
export type NewClientInput = Omit<OidcClientOptions, 'clientSecret' | 'clientId'> & {
  clientId?: string;
  public?: boolean;
};

/** Options of `oidcProvider()`. Every duration is in seconds. */
export interface OidcProviderOptions {
  /**
   * Where clients, codes, grants, refresh tokens and consents live. Default: the auth adapter's own database
   * (`createSqlOidcProviderStorage(adapter.kysely)`, created by `auth.migrate()`; in memory on the memory adapter).
   */
  storage?: OidcProviderStorage;
  /** Clients registered in code (kept in memory; they take precedence over stored clients of the same id). */
  clients?: readonly OidcClientOptions[];
  /** The scopes the provider offers (a subset of `openid profile email offline_access`). Default all four. */
  scopes?: readonly string[];
  /** Access-token lifetime. Default 3600 (1 hour). */
  accessTokenTtl?: number;
  /** ID-token lifetime. Default 3600. */
  idTokenTtl?: number;
  /** Authorization-code lifetime. Default 60. */
  codeTtl?: number;
  /** Refresh-token lifetime (each rotation starts a new one). Default 2592000 (30 days). */
  refreshTokenTtl?: number;
  /**
   * Dynamic client registration (RFC 7591) at `POST {basePath}/oauth2/register`, advertised as
   * `registration_endpoint` in discovery. `false` (default): the route answers 404. An object turns it on;
   * `initialAccessToken` (at least 32 characters) then must come as `Authorization: Bearer <token>` (else 401
   * `invalid_token`); without it anyone may register a client (counted per IP on the `login` limiter).
   */
  dynamicRegistration?: false | { initialAccessToken?: string };
}

/** The options with their defaults applied. */
export interface ResolvedOidcProviderOptions {
  storage: OidcProviderStorage;
  bindStorage: AdapterStorage<OidcProviderStorage>['bind'];
  clients: readonly OidcClientOptions[];
  scopes: readonly string[];
  accessTokenTtl: number;
  idTokenTtl: number;
  codeTtl: number;
  refreshTokenTtl: number;
  dynamicRegistration: false | { initialAccessToken?: string };
}

const CLIENT_ID = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Checks a client's registration.
 * @throws AuthConfigError (`INVALID_CONFIG`) naming the mistake.
 */
export function checkClient(c: OidcClientOptions, scopes: readonly string[], who = 'oidcProvider()'): void {
  const fail = (what: string) => new AuthConfigError(`Invalid auth config: ${who}: ${what}`);
  if (!c || typeof c !== 'object') throw fail('each client must be an object');
  if (typeof c.clientId !== 'string' || !CLIENT_ID.test(c.clientId))
    throw fail(`clientId must match ${CLIENT_ID}, got ${JSON.stringify(c.clientId)}`);
  if (c.clientSecret !== undefined && (typeof c.clientSecret !== 'string' || c.clientSecret.length < 32))
    throw fail(`client ${c.clientId}: clientSecret must be at least 32 characters`);
  if (typeof c.name !== 'string' || !c.name.trim()) throw fail(`client ${c.clientId}: name is required`);
  const uris = (name: string, list: readonly string[] | undefined, required: boolean) => {
    if (!Array.isArray(list) || (required && list.length === 0))
      throw fail(`client ${c.clientId}: ${name} must be a list of absolute URLs`);
    for (const uri of list) {
      let url: URL;
      try {
        url = new URL(uri);
      } catch {
        throw fail(`client ${c.clientId}: ${name} has a malformed URL ${JSON.stringify(uri)}`);
      }
      if (url.hash || uri.includes('#')) throw fail(`client ${c.clientId}: ${name} must not carry a fragment`);
      if (url.protocol === 'javascript:' || url.protocol === 'data:')
        throw fail(`client ${c.clientId}: ${name} has a forbidden scheme`);
    }
  };
  uris('redirectUris', c.redirectUris, true);
  uris('postLogoutRedirectUris', c.postLogoutRedirectUris ?? [], false);
  for (const scope of c.scopes ?? [])
    if (!scopes.includes(scope)) throw fail(`client ${c.clientId}: unknown scope ${JSON.stringify(scope)}`);
}

function seconds(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1)
    throw new AuthConfigError(`Invalid auth config: oidcProvider(): ${name} must be a positive integer (seconds)`);
  return v;
}

function registration(
  value: OidcProviderOptions['dynamicRegistration'],
): ResolvedOidcProviderOptions['dynamicRegistration'] {
  if (value === undefined || value === false) return false;
  const token = typeof value === 'object' && value !== null ? value.initialAccessToken : null;
  if (token === null || (token !== undefined && (typeof token !== 'string' || token.length < 32)))
    throw new AuthConfigError(
      'Invalid auth config: oidcProvider(): dynamicRegistration must be false or { initialAccessToken?: string of at least 32 characters }',
    );
  return token === undefined ? {} : { initialAccessToken: token };
}

/**
 * Checks and completes the options.
 * @throws AuthConfigError (`INVALID_CONFIG`) for a bad storage, scope, client, duration or `dynamicRegistration`, or a
 *   duplicate client id.
 */
export function resolveOidcProviderOptions(options: OidcProviderOptions = {}): ResolvedOidcProviderOptions {
  const fail = (what: string) => new AuthConfigError(`Invalid auth config: oidcProvider(): ${what}`);
  if (!options || typeof options !== 'object') throw fail('needs an options object');
  if (options.storage !== undefined && typeof options.storage?.consumeCode !== 'function')
    throw fail('`storage` must be an oidcProvider storage (createSqlOidcProviderStorage(db) or the memory one)');
  const scopes = [...(options.scopes ?? SUPPORTED_SCOPES)];
  for (const s of scopes)
    if (!(SUPPORTED_SCOPES as readonly string[]).includes(s)) throw fail(`unknown scope ${JSON.stringify(s)}`);
  if (!scopes.includes('openid')) throw fail('scopes must include "openid"');
  const clients = [...(options.clients ?? [])];
  const seen = new Set<string>();
  for (const c of clients) {
    checkClient(c, scopes);
    if (seen.has(c.clientId)) throw fail(`client ${c.clientId} is registered twice`);
    seen.add(c.clientId);
  }
  const storage = adapterStorage('oidcProvider()', options.storage, {
    sql: (db) => createSqlOidcProviderStorage(db),
    memory: createMemoryOidcProviderStorage,
  });
  return {
    storage: storage.storage,
    bindStorage: storage.bind,
    clients,
    scopes,
    accessTokenTtl: seconds('accessTokenTtl', options.accessTokenTtl, 3600),
    idTokenTtl: seconds('idTokenTtl', options.idTokenTtl, 3600),
    codeTtl: seconds('codeTtl', options.codeTtl, 60),
    refreshTokenTtl: seconds('refreshTokenTtl', options.refreshTokenTtl, 30 * 86_400),
    dynamicRegistration: registration(options.dynamicRegistration),
  };
}
