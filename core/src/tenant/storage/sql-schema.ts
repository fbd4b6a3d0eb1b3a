/**
 * The tables of the SQL tenant storage, as Kysely migrations created by code.
 * @module
 * @internal
 */
import { sql, type Kysely, type Migration } from 'kysely';
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

/**
 * 0002, PostgreSQL only: the membership indexes hold the whole row, so the members page, the tenant switcher and
 * the tenant request's membership check are index-only scans. The primary key `(tenant_id, user_id)` is rebuilt
 * with `INCLUDE (role, created_at)` (a members page read one heap page per member, about 50, once the members of
 * a tenant were spread over a large table; now about 4 index pages), and the `user_id` index becomes
 * `(user_id) INCLUDE (tenant_id, role, created_at)`. Index-only scans read the heap only for pages that
 * autovacuum has not yet marked all-visible. MySQL/MariaDB already keep the rows in the clustered primary key's
 * order, and SQLite reads its B-trees through its own page cache; both are left as they are.
 */
function coveringMembers(t: TenantTables, traits: DialectTraits): Migration {
  return {
    async up(db: Kysely<any>) {
      if (traits.name !== 'postgres') return;
      const pkey = `${t.members}_pkey`;
      const building = `${t.members}_pkey_covering`;
      await sql`create unique index ${sql.id(building)} on ${sql.table(t.members)} (tenant_id, user_id) include (role, created_at)`.execute(
        db,
      );
      // The constraint takes the new index (renamed to the constraint's name); the old one goes with the old key.
      await sql`alter table ${sql.table(t.members)} drop constraint ${sql.id(pkey)}, add constraint ${sql.id(pkey)} primary key using index ${sql.id(building)}`.execute(
        db,
      );
      await sql`create index ${sql.id(`${t.members}_user_covering_idx`)} on ${sql.table(t.members)} (user_id) include (tenant_id, role, created_at)`.execute(
        db,
      );
      await db.schema.dropIndex(`${t.members}_user_id_idx`).execute();
    },
  };
}

/** The storage's migrations, in order (run by `pluginSql(...).migrate`, bookkeeping in `<prefix>_migrations`). */
export function tenantMigrations(t: TenantTables, traits: DialectTraits): Record<string, Migration> {
  return { '0001_tenants': initial(t, traits), '0002_covering_member_indexes': coveringMembers(t, traits) };
}
