/**
 * `createSqlTenantStorage`: tenants and memberships in SQL tables, over a
 * Kysely instance you own (SQLite or PostgreSQL).
 * @module
 */
import type { Kysely } from 'kysely';
import { detectDialect, dialects, type SqlDialectName } from '../../storage/sql/dialect.js';
import { StorageConflictError } from '../../storage/types.js';
import type { Tenant, TenantMembership, TenantStorage } from '../types.js';
import { tenantStorage, type TenantBackend } from './backend.js';
import { migrateTenantTables, tenantTables } from './sql-schema.js';

/** Options of {@link createSqlTenantStorage}. */
export interface SqlTenantStorageOptions {
  /**
   * Name of the tenants table (letters, digits, `_`). Default `tenants`.
   * Memberships go in `<tableName>_members`, migration bookkeeping in
   * `<tableName>_migrations` and `<tableName>_migrations_lock`.
   */
  tableName?: string;
  /** Which SQL `db` speaks. Default: detected from the Kysely dialect (SQLite or PostgreSQL). */
  dialect?: SqlDialectName;
}

interface TenantRow {
  id: string;
  slug: string;
  name: string;
  settings: string | null;
  /** Milliseconds since the epoch; PostgreSQL `bigint` arrives as a string. */
  created_at: number | string;
  updated_at: number | string;
}

interface MemberRow {
  tenant_id: string;
  user_id: string;
  role: string;
  created_at: number | string;
}

const toTenant = (row: TenantRow): Tenant => ({
  id: row.id,
  slug: row.slug,
  name: row.name,
  ...(row.settings === null ? {} : { settings: JSON.parse(row.settings) as Record<string, unknown> }),
  createdAt: new Date(Number(row.created_at)),
  updatedAt: new Date(Number(row.updated_at)),
});
const toRow = (t: Tenant): TenantRow => ({
  id: t.id,
  slug: t.slug,
  name: t.name,
  settings: t.settings === undefined ? null : JSON.stringify(t.settings),
  created_at: t.createdAt.getTime(),
  updated_at: t.updatedAt.getTime(),
});
const toMember = (row: MemberRow): TenantMembership => ({
  tenantId: row.tenant_id,
  userId: row.user_id,
  role: row.role,
  createdAt: new Date(Number(row.created_at)),
});

/**
 * Creates a tenant storage over SQL tables (spec: `createSqlTenantStorage(db,
 * {tableName})`, default table `tenants`), for SQLite (≥ 3.35) or
 * PostgreSQL through your Kysely instance. Call `migrate()` once at
 * start-up: it creates the tables by code and is idempotent.
 *
 * Times are integer milliseconds (`bigint` in PostgreSQL), `settings` JSON
 * text. The slug has a unique index; memberships have the primary key
 * (tenant_id, user_id), an index on user_id and reference the tenant with
 * `ON DELETE CASCADE` (deletes also remove them explicitly, in a
 * transaction, for SQLite connections without `foreign_keys`). Kysely
 * plugins on `db` are bypassed. The caller owns `db` and destroys it.
 *
 * @throws TypeError at creation for a malformed `tableName`, an unknown
 *   `dialect`, or a dialect that cannot be detected.
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * import { Kysely, SqliteDialect } from 'kysely';
 * import { createSqlTenantStorage } from '@framework/auth/tenant';
 *
 * const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database('.data/app.db') }) });
 * const tenants = createSqlTenantStorage(db);
 * await tenants.migrate();
 * await tenants.create({ slug: 'acme', name: 'Acme Inc.' });
 * ```
 */
export function createSqlTenantStorage(db: Kysely<any>, options: SqlTenantStorageOptions = {}): TenantStorage {
  const t = tenantTables(options.tableName);
  const dialect = options.dialect ?? detectDialect(db, 'createSqlTenantStorage');
  const traits = dialects[dialect];
  if (!traits) throw new TypeError(`Unknown SQL dialect ${JSON.stringify(dialect)}: use 'sqlite' or 'postgres'`);
  const q = db.withoutPlugins();

  /** Runs `write`, turning a unique violation into a StorageConflictError. */
  async function guard(write: Promise<unknown>): Promise<void> {
    try {
      await write;
    } catch (error) {
      const violation = traits.uniqueViolation(error);
      if (violation === null) throw error;
      throw Object.assign(
        new StorageConflictError(
          `Tenant unique constraint violated: ${violation}`,
          violation.includes('slug') ? 'slug' : 'id',
        ),
        { cause: error },
      );
    }
  }

  const one = async (column: 'id' | 'slug', value: string) => {
    const row = await q
      .selectFrom(t.tenants)
      .selectAll()
      .where(column, '=', value)
      .$castTo<TenantRow>()
      .executeTakeFirst();
    return row ? toTenant(row) : null;
  };
  const members = (column: 'tenant_id' | 'user_id', value: string) =>
    q
      .selectFrom(t.members)
      .selectAll()
      .where(column, '=', value)
      .$castTo<MemberRow>()
      .execute()
      .then((rows) => rows.map(toMember));

  const backend: TenantBackend = {
    migrate: () => migrateTenantTables(q, t, dialect, traits),
    byId: (id) => one('id', id),
    bySlug: (slug) => one('slug', slug),
    all: async () => (await q.selectFrom(t.tenants).selectAll().$castTo<TenantRow>().execute()).map(toTenant),
    insert: (tenant) => guard(q.insertInto(t.tenants).values(toRow(tenant)).execute()),
    async replace(next) {
      const { id: _id, created_at: _created, ...changes } = toRow(next);
      await guard(q.updateTable(t.tenants).set(changes).where('id', '=', next.id).execute());
    },
    async remove(id) {
      return q.transaction().execute(async (trx) => {
        await trx.deleteFrom(t.members).where('tenant_id', '=', id).execute();
        const result = await trx.deleteFrom(t.tenants).where('id', '=', id).executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      });
    },
    async putMember(m) {
      const row: MemberRow = {
        tenant_id: m.tenantId,
        user_id: m.userId,
        role: m.role,
        created_at: m.createdAt.getTime(),
      };
      await q
        .insertInto(t.members)
        .values(row)
        .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doUpdateSet({ role: m.role }))
        .execute();
    },
    async member(tenantId, userId) {
      const row = await q
        .selectFrom(t.members)
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', userId)
        .$castTo<MemberRow>()
        .executeTakeFirst();
      return row ? toMember(row) : null;
    },
    members: (tenantId) => members('tenant_id', tenantId),
    memberships: (userId) => members('user_id', userId),
    async removeMember(tenantId, userId) {
      const result = await q
        .deleteFrom(t.members)
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
  return tenantStorage(backend);
}
