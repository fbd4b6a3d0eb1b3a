/**
 * The tables of the SQL tenant storage, as Kysely migrations created by code.
 * @module
 * @internal
 */
import type { Kysely, Migration } from 'kysely';
import { createTable, type DialectTraits } from '../../storage/sql/dialect.js';

/** The names of the storage's tables for one `tablePrefix`. */
export interface TenantTables {
  tenants: string;
  members: string;
  migrations: string;
  migrationLock: string;
}

/**
 * Table names derived from `tablePrefix`: `<name>`, `<name>_members`,
 * `<name>_migrations`, `<name>_migrations_lock`.
 */
export function tenantTables(tablePrefix = 'tenants'): TenantTables {
  return {
    tenants: tablePrefix,
    members: `${tablePrefix}_members`,
    migrations: `${tablePrefix}_migrations`,
    migrationLock: `${tablePrefix}_migrations_lock`,
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

/** The storage's migrations, in order (run by `pluginSql(...).migrate`, bookkeeping in `<prefix>_migrations`). */
export function tenantMigrations(t: TenantTables, traits: DialectTraits): Record<string, Migration> {
  return { '0001_tenants': initial(t, traits) };
}
