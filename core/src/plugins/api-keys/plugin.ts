/**
 * `apiKeys()`: per-user API keys on the plugin surface.
 * @module
 */
import { systemClock, type AuthClock } from '../../clock.js';
import { AuthConfigError } from '../../errors.js';
import type { AuthPlugin } from '../../contract/types.js';
import { resolveApiKeysOptions, type ApiKeysOptions } from './options.js';
import { apiKeyResolver } from './resolve.js';
import { createAction, listAction, revokeAction } from './routes.js';
import type { ApiKeyStorage } from './types.js';

/** `auth.extensions.apiKeys`. */
export interface ApiKeysExtension {
  /** The key storage (to list or revoke keys from admin code). */
  readonly storage: ApiKeyStorage;
}

/**
 * API keys for signed-in users (issue #17). Routes under `basePath`, for a
 * session cookie only (never an API key): `GET /api-keys` lists the user's
 * keys (no secrets); `POST /api-keys` (`name?`, `expiresIn?` in seconds,
 * `permissions?` and `roles?` space-separated, each one the user holds)
 * creates one and answers 201 `{key, id, prefix, name, permissions, roles,
 * createdAt, expiresAt, revokedAt}`: `key` (`fk_<prefix>_<secret>`) is shown this once, only the
 * SHA-256 of its secret is stored; `POST /api-keys/revoke` (`id`) revokes.
 * The POSTs are CSRF-checked (token policy).
 *
 * Any request with `Authorization: Bearer <key>` or `x-api-key: <key>` and
 * no session cookie is then read by `getSession` / `getUser` /
 * `requirePermission` as the key's owner: the session is an
 * {@link ApiKeySession} (`type: 'api-key'`), and every permission check
 * passes only for permissions both the owner's roles and the key grant;
 * a role check of a key with `permissions` passes only for a role whose full
 * permission set the key holds or that it was granted (`roles?` at creation,
 * each one the user holds). Each read passes the sign-in checks (a banned or
 * deleted owner: 401 `CREDENTIAL_REFUSED`). Such a session sets no cookie, and is ignored by every
 * route under `basePath` and by `getAccessToken`. Each key has its own
 * budget (default 1000 requests per 60 s); over it, `auth.run` /
 * `getSession` reject with `AuthError` `RATE_LIMITED` (429, `Retry-After`),
 * which `auth.toResponse` and the adapters answer.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) at `createAuth` without an
 *   `adapter` (keys name stored users) or for bad options.
 * @example
 * ```ts
 * import { apiKeys, createSqlApiKeyStorage } from '@framework/auth/plugins/api-keys';
 *
 * const storage = createSqlApiKeyStorage(db);
 * await storage.migrate();
 * const auth = createAuth({ ...config, adapter, rbac, plugins: [apiKeys({ storage, rateLimit: { storage: loginStorage } })] });
 * // POST /auth/api-keys {name: 'CI', permissions: 'posts:read', expiresIn: 86400} → {key: 'fk_…'}
 * // curl -H 'Authorization: Bearer fk_…' https://app.example.com/api/posts
 * app.get('/api/posts', (c) => { requirePermission('posts:read'); … });
 * ```
 */
export function apiKeys(options: ApiKeysOptions = {}): AuthPlugin<'apiKeys', ApiKeysExtension> {
  const o = resolveApiKeysOptions(options);
  let resolve: ReturnType<typeof apiKeyResolver> | undefined;
  let clock: AuthClock = systemClock;
  return {
    id: 'apiKeys',
    init(auth) {
      clock = auth.clock;
      if (!auth.adapter)
        throw new AuthConfigError('Invalid auth config: apiKeys() needs `adapter` (keys belong to stored users)');
      o.bindStorage(auth.adapter);
      resolve = apiKeyResolver(auth, o);
      return { storage: o.storage };
    },
    migrate: () => o.storage.migrate(),
    hooks: {
      resolveSession: (request, info) => (resolve ? resolve(request, info) : undefined),
      // The pre-hijacking defence: keys made while the email was unproven go with the other credentials.
      credentialsReset: (userId) => revokeAll(o, userId, clock),
      // A deleted user's keys are revoked (the key storage keeps revoked rows).
      userDeleted: (userId) => revokeAll(o, userId, clock),
    },
    routes: {
      'api-keys': {
        GET: (ctx) => listAction(ctx, o),
        POST: (ctx) => createAction(ctx, o),
        csrf: 'token',
      },
      'api-keys/revoke': {
        POST: (ctx) => revokeAction(ctx, o),
        csrf: 'token',
      },
    },
  };
}

/** Revokes every live key of `userId`. */
async function revokeAll(o: ReturnType<typeof resolveApiKeysOptions>, userId: string, clock: AuthClock): Promise<void> {
  const at = new Date(clock.now());
  for (const key of await o.storage.listByUser(userId)) if (!key.revokedAt) await o.storage.revoke(key.id, userId, at);
}
