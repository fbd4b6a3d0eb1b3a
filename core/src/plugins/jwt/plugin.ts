/**
 * The `jwt()` plugin: short-lived access tokens for other services.
 * `GET /token` signs one for the current session; `GET /jwks` publishes the
 * public keys a resource server verifies it with.
 * @module
 */
import { SignJWT, type JSONWebKeySet } from 'jose';
import { randomString } from '../../crypto.js';
import { AuthConfigError } from '../../errors.js';
import { signedIn } from '../../routes/account/signed-in.js';
import { tokenCipher } from '../../storage/token-cipher.js';
import type { User } from '../../types.js';
import type { AuthPlugin } from '../../contract/types.js';
import { adapterStorage } from '../plugin-sql.js';
import { createKeyRing } from './key-ring.js';
import { createMemoryJwksStorage } from './storage/memory.js';
import { createSqlJwksStorage } from './storage/sql.js';
import type { JwksStorage, JwtSigningAlgorithm } from './storage/types.js';
import { ACCESS_TOKEN_TYPE } from './verify.js';

const DAY = 86_400;

/** Options of {@link jwt}. Every duration is in seconds. */
export interface JwtPluginOptions {
  /**
   * Where signing keys live (private keys sealed with the auth `secret`). Default: the auth adapter's own database
   * (`createSqlJwksStorage(adapter.kysely)`, created by `auth.migrate()`; in memory on the memory adapter).
   */
  storage?: JwksStorage;
  /** The `aud` claim: the service(s) the tokens are for, e.g. `https://api.example.com`. */
  audience: string | readonly string[];
  /** Token lifetime. Default 900 (15 minutes). */
  expiresIn?: number;
  /**
   * Signing algorithm: `EdDSA` (Ed25519, RFC 8037; default) or `ES256` (P-256, RFC 7518 §3.4). Changing it
   * rotates to a key of the new kind.
   */
  algorithm?: JwtSigningAlgorithm;
  /** A new key is created when the newest is older than this. Default 30 days. */
  rotateEvery?: number;
  /**
   * How long a replaced key stays published so the tokens it signed still verify. Default 7 days; at least
   * `expiresIn`.
   */
  gracePeriod?: number;
  /**
   * How long a new key is published before it signs, so verifiers holding a
   * cached JWKS learn it first (jose refetches on an unknown `kid` at most
   * every 30 s; `GET /jwks` may be cached `jwksMaxAge`). Default 300.
   */
  activationDelay?: number;
  /** `Cache-Control: max-age` of `GET /jwks`. Default 60; keep it below `activationDelay`. */
  jwksMaxAge?: number;
  /**
   * Extra claims for a user, e.g. `(user) => ({ roles: user.roles })`. They cannot replace `sub`, `iss`,
   * `aud`, `exp`, `iat`, `nbf`, `jti` or `act` (the actor of an impersonation is set by the plugin only).
   */
  claims?: (user: User) => Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** A signed access token. */
export interface IssuedAccessToken {
  /** The compact JWS. */
  token: string;
  tokenType: 'Bearer';
  /** Lifetime in seconds. */
  expiresIn: number;
}

/** Options of {@link JwtExtension.sign}. */
export interface SignAccessTokenOptions {
  /**
   * The user id of whoever acts as `user` (an admin impersonating them): the token then carries the actor claim
   * `act: { sub: actor }` of RFC 8693 §4.1, so a resource server sees who really acts. `GET /token` sets it from an
   * impersonation session.
   */
  actor?: string;
}

/** `auth.extensions.jwt`. */
export interface JwtExtension {
  /** The `iss` of every token: the app's `baseURL`. */
  readonly issuer: string;
  /**
   * Signs an access token for `user` (what `GET /token` does for the session's user); with `options.actor`, the
   * token carries `act: { sub: actor }` (RFC 8693 §4.1).
   */
  sign(user: User, options?: SignAccessTokenOptions): Promise<IssuedAccessToken>;
  /**
   * Creates the next signing key now (for a scheduled job); it is published at once and signs after
   * `activationDelay`. Returns its `kid` (the winner's, when another instance rotated at the same time).
   */
  rotate(): Promise<{ kid: string }>;
  /**
   * The key that signs now (the ring's active key, `kid` and `alg` as published in the JWKS), for plugins that sign
   * tokens of their own with jose (`oidcProvider()`'s ID tokens). Creates or rotates keys as `sign` does.
   */
  signingKey(): Promise<{ kid: string; alg: JwtSigningAlgorithm; key: CryptoKey }>;
  /** The published key set (public keys only). */
  jwks(): Promise<JSONWebKeySet>;
  /** `GET /jwks` as a `Response`, to serve it elsewhere too, e.g. at `/.well-known/jwks.json`. */
  jwksResponse(): Promise<Response>;
}

const RESERVED = new Set(['sub', 'iss', 'aud', 'exp', 'iat', 'nbf', 'jti', 'act']);

function seconds(name: string, value: number | undefined, fallback: number, min = 1): number {
  const v = value ?? fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min)
    throw new AuthConfigError(
      `Invalid auth config: jwt(): ${name} must be an integer number of seconds ≥ ${min}, got ${String(v)}`,
    );
  return v;
}

/** Checks the options; every mistake is an `INVALID_CONFIG` at start-up. */
function settle(options: JwtPluginOptions) {
  if (!options || (options.storage !== undefined && typeof options.storage?.list !== 'function'))
    throw new AuthConfigError(
      'Invalid auth config: jwt() needs `storage` (createSqlJwksStorage(db) or createMemoryJwksStorage())',
    );
  const audience = typeof options.audience === 'string' ? [options.audience] : [...(options.audience ?? [])];
  if (audience.length === 0 || audience.some((a) => typeof a !== 'string' || a === ''))
    throw new AuthConfigError('Invalid auth config: jwt() needs `audience`, e.g. "https://api.example.com"');
  const algorithm = options.algorithm ?? 'EdDSA';
  if (algorithm !== 'EdDSA' && algorithm !== 'ES256')
    throw new AuthConfigError(
      `Invalid auth config: jwt(): algorithm must be "EdDSA" or "ES256", got ${JSON.stringify(algorithm)}`,
    );
  const expiresIn = seconds('expiresIn', options.expiresIn, 900);
  const gracePeriod = seconds('gracePeriod', options.gracePeriod, 7 * DAY);
  if (gracePeriod < expiresIn)
    throw new AuthConfigError(
      'Invalid auth config: jwt(): gracePeriod must be at least expiresIn, or tokens stop verifying before they expire',
    );
  return {
    audience,
    algorithm,
    expiresIn,
    gracePeriod,
    rotateEvery: seconds('rotateEvery', options.rotateEvery, 30 * DAY),
    activationDelay: seconds('activationDelay', options.activationDelay, 300, 0),
    jwksMaxAge: seconds('jwksMaxAge', options.jwksMaxAge, 60, 0),
  };
}

/**
 * Access tokens for other services (issue #17). Adds, under `basePath`:
 *
 * - `GET /token`: for a signed-in session, `{ token, tokenType: 'Bearer',
 *   expiresIn }` with `Cache-Control: no-store`; 401 `UNAUTHENTICATED`
 *   without a session. The token is a JWS (EdDSA or ES256, header
 *   `typ: at+jwt`, `kid`) with `sub` (user id), `iss` (`baseURL`), `aud`,
 *   `iat`, `exp`, `jti` and your `claims`. From an impersonation session
 *   (`admin()`), `sub` is the impersonated user and the token carries
 *   `act: { sub: adminId }` (RFC 8693 §4.1), as the session itself does.
 * - `GET /jwks`: the public keys (RFC 7517 key set; `kid`, `alg`,
 *   `use: 'sig'`, never private members), including replaced keys for
 *   `gracePeriod`.
 *
 * Keys are created on demand: the first `GET /token` creates one; when the
 * newest is older than `rotateEvery`, the next request creates the next
 * (or call `auth.extensions.jwt.rotate()` from a scheduled job). Several
 * instances may rotate at once: the storage keeps one key per generation,
 * so exactly one new key is stored and every instance signs with it.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) at `jwt()` for bad options, and
 *   at `createAuth` without `baseURL` (or `AUTH_URL`; the issuer must be
 *   stable) or without `secret` (private keys are stored encrypted with it).
 * @example
 * ```ts
 * import { createAuth } from '@framework/auth';
 * import { createSqlJwksStorage, jwt } from '@framework/auth/plugins/jwt';
 *
 * const storage = createSqlJwksStorage(db);
 * await storage.migrate(); // creates the key table (idempotent)
 * const auth = createAuth({
 *   baseURL: 'https://app.example.com',
 *   secret: process.env.AUTH_SECRET,
 *   adapter,
 *   providers,
 *   plugins: [jwt({ storage, audience: 'https://api.example.com', claims: (user) => ({ roles: user.roles }) })],
 * });
 * // The browser: fetch('/auth/token') → { token }; the API verifies it with verifyAccessToken.
 * ```
 */
export function jwt(options: JwtPluginOptions): AuthPlugin<'jwt', JwtExtension> {
  const settings = settle(options);
  const keys = adapterStorage('jwt()', options.storage, {
    sql: (db) => createSqlJwksStorage(db),
    memory: createMemoryJwksStorage,
  });
  let ext: JwtExtension | undefined;
  const ready = () => {
    if (!ext) throw new Error('jwt(): the plugin is used before createAuth initialised it');
    return ext;
  };

  return {
    id: 'jwt',
    init(auth) {
      const issuer = auth.originPolicy.baseURL;
      if (!issuer)
        throw new AuthConfigError(
          'Invalid auth config: jwt() needs `baseURL` (or the AUTH_URL environment variable): it is the `iss` of every token and must not depend on the request',
        );
      if (auth.config.secret.length === 0)
        throw new AuthConfigError(
          'Invalid auth config: jwt() needs `secret`: signing keys are stored encrypted with it',
        );
      keys.bind(auth.adapter);
      const ring = createKeyRing({
        storage: keys.storage,
        cipher: tokenCipher(auth.config.secret),
        now: () => auth.clock.now(),
        ...settings,
      });
      const jwks = async (): Promise<JSONWebKeySet> => ({ keys: await ring.publicKeys() });
      ext = {
        issuer,
        async sign(user, signOptions) {
          const extra = options.claims ? await options.claims(user) : {};
          const custom = Object.fromEntries(Object.entries(extra ?? {}).filter(([name]) => !RESERVED.has(name)));
          if (signOptions?.actor !== undefined) custom.act = { sub: signOptions.actor };
          const { kid, alg, key } = await ring.signingKey();
          const iat = Math.floor(auth.clock.now() / 1000);
          const token = await new SignJWT(custom)
            .setProtectedHeader({ alg, kid, typ: ACCESS_TOKEN_TYPE })
            .setSubject(user.id)
            .setIssuer(issuer)
            .setAudience(settings.audience.length === 1 ? settings.audience[0]! : settings.audience)
            .setIssuedAt(iat)
            .setExpirationTime(iat + settings.expiresIn)
            .setJti(randomString(16))
            .sign(key);
          return { token, tokenType: 'Bearer', expiresIn: settings.expiresIn };
        },
        async rotate() {
          return { kid: (await ring.rotate()).kid };
        },
        signingKey: () => ring.signingKey(),
        jwks,
        async jwksResponse() {
          return Response.json(await jwks(), {
            headers: { 'cache-control': `public, max-age=${settings.jwksMaxAge}` },
          });
        },
      };
      return ext;
    },
    migrate: () => keys.storage.migrate(),
    routes: {
      token: {
        async GET(ctx) {
          // The session cookie only, confirmed against storage now; an impersonation is read from the session
          // itself (never from what the `session` callback shows), so its token always names the admin in `act`.
          const caller = await signedIn(ctx);
          const actor = caller.impersonatedBy !== undefined ? { actor: caller.impersonatedBy } : undefined;
          return {
            status: 200,
            json: await ready().sign(caller.user, actor),
            headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
            cookies: caller.cookies,
          };
        },
      },
      jwks: {
        async GET() {
          return {
            status: 200,
            json: await ready().jwks(),
            headers: { 'cache-control': `public, max-age=${settings.jwksMaxAge}` },
          };
        },
      },
    },
  };
}
