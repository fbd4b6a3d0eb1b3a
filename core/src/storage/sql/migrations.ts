/**
 * The schema of the SQL adapter, as Kysely migrations created by code. Each
 * migration runs once per database, recorded in `${prefix}migrations`.
 * @module
 * @internal
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { runMigrations } from './migrator.js';
import { orSkip } from './pg-optional.js';
import { createTable, type DialectTraits, type SqlDialectName } from './dialect.js';
import type { TableNames } from './tables.js';
import { MYSQL_NAME_LOWER, searchIndexes } from './user-search.js';

/** The initial schema: users, accounts, sessions, verification tokens, authenticators. */
function initialSchema(t: TableNames, traits: DialectTraits): Migration {
  const { int64, bool, key } = traits;
  const userRef = `${t.users}.id`;
  return {
    async up(db: Kysely<any>) {
      await createTable(db, t.users, traits)
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('email', 'text')
        .addColumn('email_normalized', key)
        .addColumn('name', 'text')
        .addColumn('image', 'text')
        .addColumn('email_verified', int64)
        .addColumn('role', 'text')
        .addColumn('roles', 'text')
        .execute();
      await db.schema
        .createIndex(`${t.users}_email_normalized_key`)
        .on(t.users)
        .column('email_normalized')
        .unique()
        .execute();

      await createTable(db, t.accounts, traits)
        .addColumn('provider', key, (c) => c.notNull())
        .addColumn('provider_account_id', key, (c) => c.notNull())
        .addColumn('user_id', key, (c) => c.notNull().references(userRef).onDelete('cascade'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('access_token', 'text')
        .addColumn('refresh_token', 'text')
        .addColumn('expires_at', int64)
        .addColumn('token_type', 'text')
        .addColumn('scope', 'text')
        .addColumn('id_token', 'text')
        .addColumn('password_hash', 'text')
        .addPrimaryKeyConstraint(`${t.accounts}_pkey`, ['provider', 'provider_account_id'])
        .execute();
      await db.schema.createIndex(`${t.accounts}_user_id_idx`).on(t.accounts).column('user_id').execute();

      await createTable(db, t.sessions, traits)
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('user_id', key, (c) => c.notNull().references(userRef).onDelete('cascade'))
        .addColumn('expires', int64, (c) => c.notNull())
        .addColumn('created_at', int64, (c) => c.notNull())
        .execute();
      await db.schema.createIndex(`${t.sessions}_user_id_idx`).on(t.sessions).column('user_id').execute();
      await db.schema.createIndex(`${t.sessions}_expires_idx`).on(t.sessions).column('expires').execute();

      await createTable(db, t.verificationTokens, traits)
        .addColumn('identifier', key, (c) => c.notNull())
        .addColumn('token_hash', key, (c) => c.notNull())
        .addColumn('expires', int64, (c) => c.notNull())
        .addPrimaryKeyConstraint(`${t.verificationTokens}_pkey`, ['identifier', 'token_hash'])
        .execute();

      await createTable(db, t.authenticators, traits)
        .addColumn('credential_id', key, (c) => c.primaryKey())
        .addColumn('user_id', key, (c) => c.notNull().references(userRef).onDelete('cascade'))
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', int64, (c) => c.notNull())
        .addColumn('transports', 'text', (c) => c.notNull())
        .addColumn('device_type', 'text', (c) => c.notNull())
        .addColumn('backed_up', bool, (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('created_at', int64, (c) => c.notNull())
        .execute();
      await db.schema.createIndex(`${t.authenticators}_user_id_idx`).on(t.authenticators).column('user_id').execute();
    },
  };
}

/**
 * Session versions (JWT revocation) and purging: `users.session_version`
 * (default 0, so existing rows upgrade in place) and an index on the expiry
 * of verification tokens.
 */
function sessionVersions(t: TableNames, traits: DialectTraits): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable(t.users)
        .addColumn('session_version', traits.int64, (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex(`${t.verificationTokens}_expires_idx`)
        .on(t.verificationTokens)
        .column('expires')
        .execute();
    },
  };
}

/**
 * Session metadata for the "signed-in devices" list: nullable
 * `sessions.user_agent`, `ip` and `last_active_at`, so existing rows upgrade
 * in place (they read back without metadata).
 */
function sessionMetadata(t: TableNames, traits: DialectTraits): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable(t.sessions).addColumn('user_agent', 'text').execute();
      await db.schema.alterTable(t.sessions).addColumn('ip', 'text').execute();
      await db.schema.alterTable(t.sessions).addColumn('last_active_at', traits.int64).execute();
    },
  };
}

/** Impersonation (`admin()`): nullable `sessions.impersonated_by`, so existing rows upgrade in place. */
function sessionImpersonation(t: TableNames): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable(t.sessions).addColumn('impersonated_by', 'text').execute();
    },
  };
}

/**
 * Autovacuum for the tables `purgeExpired` empties (PostgreSQL only): vacuum
 * once 1 % of the rows plus 1 000 are dead, instead of the server default of
 * 20 %, so the dead tuples of a nightly purge of a large session table do not
 * linger under the trigger. Skipped where the role may not set it (not the
 * table owner); nothing on SQLite.
 */
function purgeAutovacuum(t: TableNames, traits: DialectTraits): Migration {
  return {
    async up(db: Kysely<any>) {
      if (traits.name !== 'postgres') return;
      for (const table of [t.sessions, t.verificationTokens]) {
        const set = `alter table "${table}" set (autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000)`;
        await orSkip(set).execute(db);
      }
    },
  };
}

/**
 * Indexes for the admin search (`listUsers({ search })`, see user-search.ts):
 * on SQLite `lower(name)`; on MySQL/MariaDB an indexed virtual column
 * `name_lower` (no expression indexes there); on PostgreSQL `text_pattern_ops` indexes on the
 * email and lower-cased name (prefix search) and, when `pg_trgm` is there or
 * may be created (in schema `public`, else the current one), GIN trigram
 * indexes on both (substring search). Refusals are skipped; idempotent.
 */
function searchIndexesMigration(t: TableNames, traits: DialectTraits): Migration {
  const i = searchIndexes(t);
  return {
    async up(db: Kysely<any>) {
      if (traits.name === 'sqlite') {
        await sql.raw(`create index if not exists "${i.namePrefix}" on "${t.users}" (lower("name"))`).execute(db);
        return;
      }
      if (traits.name === 'mysql') {
        // MariaDB has no expression indexes: an indexed virtual column holds the lower-cased name instead.
        // The email is searched through its unique index (varchar, binary collation: `like 'q%'` is a range).
        await db.schema
          .alterTable(t.users)
          .addColumn(MYSQL_NAME_LOWER, 'varchar(255)', (c) =>
            c.generatedAlwaysAs(sql`left(lower(${sql.ref('name')}), 255)`),
          )
          .execute();
        await db.schema.createIndex(i.namePrefix).on(t.users).column(MYSQL_NAME_LOWER).execute();
        return;
      }
      await sql
        .raw(`create index if not exists "${i.emailPrefix}" on "${t.users}" ("email_normalized" text_pattern_ops)`)
        .execute(db);
      await sql
        .raw(`create index if not exists "${i.namePrefix}" on "${t.users}" ((lower("name")) text_pattern_ops)`)
        .execute(db);
      const trigramIndexes = [
        `execute format('create index if not exists %I on %I using gin ("email_normalized" %I.gin_trgm_ops)', '${i.emailTrigram}', '${t.users}', s)`,
        `execute format('create index if not exists %I on %I using gin ((lower("name")) %I.gin_trgm_ops)', '${i.nameTrigram}', '${t.users}', s)`,
      ];
      await sql
        .raw(
          [
            'do $$ declare s text; begin',
            'begin create extension if not exists pg_trgm with schema public; exception when others then',
            'begin create extension if not exists pg_trgm; exception when others then null; end; end;',
            "select n.nspname into s from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm';",
            `if s is not null then begin ${trigramIndexes.join('; ')}; exception when others then null; end; end if;`,
            'end $$',
          ].join(' '),
        )
        .execute(db);
    },
  };
}

/** The migrations, in order. Never edit a released one: append a new one. */
export function migrations(t: TableNames, traits: DialectTraits): Record<string, Migration> {
  return {
    '0001_initial': initialSchema(t, traits),
    '0002_session_version': sessionVersions(t, traits),
    '0003_session_metadata': sessionMetadata(t, traits),
    '0004_session_impersonation': sessionImpersonation(t),
    '0005_purge_autovacuum': purgeAutovacuum(t, traits),
    '0006_user_search': searchIndexesMigration(t, traits),
  };
}

/**
 * Brings the schema up to date. Idempotent; concurrent callers are serialized
 * by Kysely's migration lock; on PostgreSQL the bookkeeping is pinned to
 * `current_schema()`.
 * @throws The first migration error, when one fails (that migration is rolled back where the dialect allows).
 */
export async function migrateToLatest(
  db: Kysely<any>,
  t: TableNames,
  traits: DialectTraits,
  dialect: SqlDialectName,
): Promise<void> {
  await runMigrations(db, {
    migrations: migrations(t, traits),
    table: t.migrations,
    lockTable: t.migrationLock,
    dialect,
  });
}
