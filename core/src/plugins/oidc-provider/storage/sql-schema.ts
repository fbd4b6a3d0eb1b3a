/**
 * The tables of the SQL `oidcProvider()` storage, as Kysely migrations created by code.
 * @module
 * @internal
 */
import type { Kysely, Migration } from 'kysely';
import { createTable, type PluginSql } from '../../../plugin-kit.js';

/** The table names for one prefix (default `oidc`): `<p>_clients`, `<p>_codes`, `<p>_grants`, `<p>_refresh_tokens`, `<p>_consents`. */
export function oidcTables(prefix: string) {
  return {
    clients: `${prefix}_clients`,
    codes: `${prefix}_codes`,
    grants: `${prefix}_grants`,
    refreshTokens: `${prefix}_refresh_tokens`,
    consents: `${prefix}_consents`,
  };
}

/** The storage's migrations, in order (bookkeeping in `<prefix>_migrations`). */
export function oidcMigrations(s: PluginSql, t: ReturnType<typeof oidcTables>): Record<string, Migration> {
  const { key, int64, bool } = s.traits;
  return {
    '0001_oidc_provider': {
      async up(db: Kysely<any>) {
        await createTable(db, t.clients, s.traits)
          .addColumn('id', key, (c) => c.primaryKey())
          .addColumn('secret_hash', key)
          .addColumn('public', bool, (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('redirect_uris', 'text', (c) => c.notNull())
          .addColumn('post_logout_redirect_uris', 'text', (c) => c.notNull())
          .addColumn('scopes', 'text', (c) => c.notNull())
          .addColumn('skip_consent', bool, (c) => c.notNull())
          .addColumn('created_at', int64, (c) => c.notNull())
          .execute();
        await createTable(db, t.codes, s.traits)
          .addColumn('code_hash', key, (c) => c.primaryKey())
          .addColumn('client_id', key, (c) => c.notNull())
          .addColumn('user_id', key, (c) => c.notNull())
          .addColumn('redirect_uri', 'text', (c) => c.notNull())
          .addColumn('code_challenge', key, (c) => c.notNull())
          .addColumn('nonce', 'text')
          .addColumn('scopes', 'text', (c) => c.notNull())
          .addColumn('auth_time', int64, (c) => c.notNull())
          .addColumn('amr', 'text', (c) => c.notNull())
          .addColumn('acr', 'text')
          .addColumn('grant_id', key, (c) => c.notNull())
          .addColumn('used', bool, (c) => c.notNull())
          .addColumn('expires_at', int64, (c) => c.notNull())
          .execute();
        await db.schema.createIndex(`${t.codes}_expires_at_idx`).on(t.codes).column('expires_at').execute();
        await createTable(db, t.grants, s.traits)
          .addColumn('id', key, (c) => c.primaryKey())
          .addColumn('client_id', key, (c) => c.notNull())
          .addColumn('user_id', key, (c) => c.notNull())
          .addColumn('scopes', 'text', (c) => c.notNull())
          .addColumn('auth_time', int64, (c) => c.notNull())
          .addColumn('amr', 'text', (c) => c.notNull())
          .addColumn('acr', 'text')
          .addColumn('created_at', int64, (c) => c.notNull())
          .addColumn('revoked_at', int64)
          .execute();
        await db.schema.createIndex(`${t.grants}_user_idx`).on(t.grants).columns(['user_id', 'client_id']).execute();
        await createTable(db, t.refreshTokens, s.traits)
          .addColumn('token_hash', key, (c) => c.primaryKey())
          .addColumn('grant_id', key, (c) => c.notNull())
          .addColumn('expires_at', int64, (c) => c.notNull())
          .addColumn('rotated_at', int64)
          .execute();
        await db.schema
          .createIndex(`${t.refreshTokens}_expires_at_idx`)
          .on(t.refreshTokens)
          .column('expires_at')
          .execute();
        await createTable(db, t.consents, s.traits)
          .addColumn('user_id', key, (c) => c.notNull())
          .addColumn('client_id', key, (c) => c.notNull())
          .addColumn('scopes', 'text', (c) => c.notNull())
          .addColumn('created_at', int64, (c) => c.notNull())
          .addPrimaryKeyConstraint(`${t.consents}_pk`, ['user_id', 'client_id'])
          .execute();
      },
    },
  };
}
