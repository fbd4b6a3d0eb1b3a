/**
 * The tables of the SQL tenant storage, as Kysely migrations created by code.
 * @module
 * @internal
 */
import type { Kysely, Migration } from 'kysely';
import { runMigrations } from '../../storage/sql/migrator.js';
import { createTable, type DialectTraits, type SqlDialectName } from '../../storage/sql/dialect.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,40}$/;

/** The names of the storage's tables for one `tableName`. */
export interface TenantTables {
  tenants: string;
  members: string;
  migrations: string;
  migrationLock: string;
}

/**
 * Table names derived from `tableName`: `<name>`, `<name>_members`,
 * `<name>_migrations`, `<name>_migrations_lock`.
 * @throws TypeError when `tableName` is not a plain SQL identifier.
 */
export function tenantTables(tableName = 'tenants'): TenantTables {
  if (typeof tableName !== 'string' || !IDENTIFIER.test(tableName)) {
    throw new TypeError(`tableName must match ${IDENTIFIER} (letters, digits, "_"); got ${JSON.stringify(tableName)}`);
  }
  return {
    tenants: tableName,
    members: `${tableName}_members`,
    migrations: `${tableName}_migrations`,
    migrationLock: `${tableName}_migrations_lock`,
  };
}

function initial(t: TenantTables, traits: DialectTraits): Migration {
  const { int64, key } = traits;
  return {
    async up(db: Kysely<any>) {
      await createTable(db, t.tenants, traits)
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('slug', key, (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('settings', 'text')
        .addColumn('created_at', int64, (c) => c.notNull())
        .addColumn('updated_at', int64, (c) => c.notNull())
        .execute();
      await createTable(db, t.members, traits)
        .addColumn('tenant_id', key, (c) => c.notNull().references(`${t.tenants}.id`).onDelete('cascade'))
        .addColumn('user_id', key, (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', int64, (c) => c.notNull())
        .addPrimaryKeyConstraint(`${t.members}_pkey`, ['tenant_id', 'user_id'])
        .execute();
      await db.schema.createIndex(`${t.members}_user_id_idx`).on(t.members).column('user_id').execute();
    },
  };
}

/**
 * Brings the tables up to date; idempotent. On PostgreSQL the migration
 * bookkeeping is pinned to `current_schema()`, so same-named tables in other
 * schemas are never mistaken for ours.
 * @throws the first migration error.
 */
export async function migrateTenantTables(
  db: Kysely<any>,
  t: TenantTables,
  dialect: SqlDialectName,
  traits: DialectTraits,
): Promise<void> {
  await runMigrations(db, {
    migrations: { '0001_tenants': initial(t, traits) },
    table: t.migrations,
    lockTable: t.migrationLock,
    dialect,
  });
}
