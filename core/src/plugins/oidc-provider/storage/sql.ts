/**
 * `createSqlOidcProviderStorage`: the provider's records in SQL tables, over a Kysely instance you own.
 * @module
 */
import type { Kysely } from 'kysely';
import { pluginSql, upsert, type SqlDialectName } from '../../../plugin-kit.js';
import type {
  AuthorizationCodeRecord,
  ConsentRecord,
  GrantRecord,
  OidcClientRecord,
  OidcProviderStorage,
  RefreshTokenRecord,
} from '../types.js';
import { oidcMigrations, oidcTables } from './sql-schema.js';

/** Options of {@link createSqlOidcProviderStorage}. */
export interface SqlOidcProviderStorageOptions {
  /** Prefix of the table names (letters, digits, `_`). Default `oidc`. */
  tablePrefix?: string;
  /** Which SQL `db` speaks. Default: detected from the Kysely dialect. */
  dialect?: SqlDialectName;
}

type Int = number | string;
type Row = Record<string, unknown>;
const time = (v: unknown) => new Date(Number(v as Int));
const optionalTime = (v: unknown) => (v === null || v === undefined ? null : time(v));
const words = (v: unknown) => String(v).split(' ').filter(Boolean);
const list = (v: unknown) => JSON.parse(String(v)) as string[];

const toClient = (r: Row): OidcClientRecord => ({
  id: String(r.id),
  secretHash: r.secret_hash === null ? null : String(r.secret_hash),
  public: Boolean(r.public),
  name: String(r.name),
  redirectUris: list(r.redirect_uris),
  postLogoutRedirectUris: list(r.post_logout_redirect_uris),
  scopes: words(r.scopes),
  skipConsent: Boolean(r.skip_consent),
  createdAt: time(r.created_at),
});
const toCode = (r: Row): AuthorizationCodeRecord => ({
  codeHash: String(r.code_hash),
  clientId: String(r.client_id),
  userId: String(r.user_id),
  redirectUri: String(r.redirect_uri),
  codeChallenge: String(r.code_challenge),
  nonce: r.nonce === null ? null : String(r.nonce),
  scopes: words(r.scopes),
  authTime: time(r.auth_time),
  amr: words(r.amr),
  acr: r.acr === null ? null : String(r.acr),
  grantId: String(r.grant_id),
  expiresAt: time(r.expires_at),
});
const toGrant = (r: Row): GrantRecord => ({
  id: String(r.id),
  clientId: String(r.client_id),
  userId: String(r.user_id),
  scopes: words(r.scopes),
  authTime: time(r.auth_time),
  amr: words(r.amr),
  acr: r.acr === null ? null : String(r.acr),
  createdAt: time(r.created_at),
  revokedAt: optionalTime(r.revoked_at),
});
const toRefresh = (r: Row): RefreshTokenRecord => ({
  tokenHash: String(r.token_hash),
  grantId: String(r.grant_id),
  expiresAt: time(r.expires_at),
  rotatedAt: optionalTime(r.rotated_at),
});
const toConsent = (r: Row): ConsentRecord => ({
  userId: String(r.user_id),
  clientId: String(r.client_id),
  scopes: words(r.scopes),
  createdAt: time(r.created_at),
});

/**
 * The provider's records in five tables (`<tablePrefix>_clients`, `_codes`, `_grants`, `_refresh_tokens`,
 * `_consents`) for SQLite (and D1), PostgreSQL and MySQL/MariaDB through your Kysely instance. `oidcProvider()`
 * builds it on the auth adapter's own database when `storage` is not given; `auth.migrate()` runs its migrations
 * (idempotent). Codes, refresh tokens and client secrets are stored only as SHA-256 hashes; times are integer
 * milliseconds. The caller owns `db`.
 *
 * @throws TypeError at creation for a malformed `tablePrefix` or an unknown or undetectable dialect.
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * import { Kysely, SqliteDialect } from 'kysely';
 * import { createSqlOidcProviderStorage } from '@framework/auth/plugins/oidc-provider';
 *
 * const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database('.data/app.db') }) });
 * const storage = createSqlOidcProviderStorage(db);
 * await storage.migrate();
 * ```
 */
export function createSqlOidcProviderStorage(
  db: Kysely<any>,
  options: SqlOidcProviderStorageOptions = {},
): OidcProviderStorage {
  const s = pluginSql(db, options, 'oidc', 'createSqlOidcProviderStorage');
  const { q, traits } = s;
  const t = oidcTables(s.prefix);
  const bool = traits.encodeBool;
  const one = async (table: string, column: string, value: string) =>
    (await q.selectFrom(table).selectAll().where(column, '=', value).$castTo<Row>().executeTakeFirst()) ?? null;
  return {
    migrate: () => s.migrate(oidcMigrations(s, t)),
    async putClient(c) {
      const row = {
        secret_hash: c.secretHash,
        public: bool(c.public),
        name: c.name,
        redirect_uris: JSON.stringify(c.redirectUris),
        post_logout_redirect_uris: JSON.stringify(c.postLogoutRedirectUris),
        scopes: c.scopes.join(' '),
        skip_consent: bool(c.skipConsent),
        created_at: c.createdAt.getTime(),
      };
      await upsert(q, traits, t.clients, { id: c.id, ...row }, ['id'], row).execute();
    },
    async getClient(id) {
      const r = await one(t.clients, 'id', id);
      return r ? toClient(r) : null;
    },
    async removeClient(id) {
      await q.deleteFrom(t.clients).where('id', '=', id).execute();
    },
    async putCode(c) {
      await q
        .insertInto(t.codes)
        .values({
          code_hash: c.codeHash,
          client_id: c.clientId,
          user_id: c.userId,
          redirect_uri: c.redirectUri,
          code_challenge: c.codeChallenge,
          nonce: c.nonce,
          scopes: c.scopes.join(' '),
          auth_time: c.authTime.getTime(),
          amr: c.amr.join(' '),
          acr: c.acr,
          grant_id: c.grantId,
          used: bool(false),
          expires_at: c.expiresAt.getTime(),
        })
        .execute();
    },
    async consumeCode(codeHash) {
      const result = await q
        .updateTable(t.codes)
        .set({ used: bool(true) })
        .where('code_hash', '=', codeHash)
        .where('used', '=', bool(false))
        .executeTakeFirst();
      const r = await one(t.codes, 'code_hash', codeHash);
      return r ? { code: toCode(r), replayed: Number(result.numUpdatedRows) === 0 } : null;
    },
    async createGrant(g) {
      const row = {
        id: g.id,
        client_id: g.clientId,
        user_id: g.userId,
        scopes: g.scopes.join(' '),
        auth_time: g.authTime.getTime(),
        amr: g.amr.join(' '),
        acr: g.acr,
        created_at: g.createdAt.getTime(),
        revoked_at: g.revokedAt?.getTime() ?? null,
      };
      await upsert(q, traits, t.grants, row, ['id'], null).execute();
    },
    async getGrant(id) {
      const r = await one(t.grants, 'id', id);
      return r ? toGrant(r) : null;
    },
    async revokeGrant(id, at) {
      await q
        .updateTable(t.grants)
        .set({ revoked_at: at.getTime() })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
    },
    async revokeGrantsOf(userId, clientId, at) {
      let query = q
        .updateTable(t.grants)
        .set({ revoked_at: at.getTime() })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (clientId !== undefined) query = query.where('client_id', '=', clientId);
      return Number((await query.executeTakeFirst()).numUpdatedRows);
    },
    async putRefreshToken(r) {
      await q
        .insertInto(t.refreshTokens)
        .values({
          token_hash: r.tokenHash,
          grant_id: r.grantId,
          expires_at: r.expiresAt.getTime(),
          rotated_at: r.rotatedAt?.getTime() ?? null,
        })
        .execute();
    },
    async getRefreshToken(tokenHash) {
      const r = await one(t.refreshTokens, 'token_hash', tokenHash);
      return r ? toRefresh(r) : null;
    },
    async rotateRefreshToken(tokenHash, at) {
      const result = await q
        .updateTable(t.refreshTokens)
        .set({ rotated_at: at.getTime() })
        .where('token_hash', '=', tokenHash)
        .where('rotated_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async putConsent(c) {
      const row = { scopes: c.scopes.join(' '), created_at: c.createdAt.getTime() };
      await upsert(
        q,
        traits,
        t.consents,
        { user_id: c.userId, client_id: c.clientId, ...row },
        ['user_id', 'client_id'],
        row,
      ).execute();
    },
    async getConsent(userId, clientId) {
      const r = await q
        .selectFrom(t.consents)
        .selectAll()
        .where('user_id', '=', userId)
        .where('client_id', '=', clientId)
        .$castTo<Row>()
        .executeTakeFirst();
      return r ? toConsent(r) : null;
    },
    async listConsents(userId) {
      const rows = await q
        .selectFrom(t.consents)
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('created_at')
        .orderBy('client_id')
        .$castTo<Row>()
        .execute();
      return rows.map(toConsent);
    },
    async removeConsent(userId, clientId) {
      const result = await q
        .deleteFrom(t.consents)
        .where('user_id', '=', userId)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async prune(now) {
      await q.deleteFrom(t.codes).where('expires_at', '<=', now.getTime()).execute();
      await q.deleteFrom(t.refreshTokens).where('expires_at', '<=', now.getTime()).execute();
    },
  };
}
