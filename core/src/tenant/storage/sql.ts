/**
 * `createSqlTenantStorage`: tenants and memberships in SQL tables, over a
 * Kysely instance you own (SQLite, PostgreSQL or MySQL/MariaDB).
 * @module
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { SqlDialectName } from '../../storage/sql/dialect.js';
import { pluginSql } from '../../plugins/plugin-sql.js';
import { StorageConflictError } from '../../storage/types.js';
import type { Tenant, TenantMembership, TenantStorage } from '../types.js';
import { tenantStorage, type GuardedChange, type TenantBackend } from './backend.js';
import { tenantMigrations, tenantTables } from './sql-schema.js';

/** Options of {@link createSqlTenantStorage}. */
export interface SqlTenantStorageOptions {
  /**
   * Name of the tenants table, and prefix of the storage's other tables (letters, digits, `_`). Default `tenants`.
   * Memberships go in `<tablePrefix>_members`, migration bookkeeping in
   * `<tablePrefix>_migrations` and `<tablePrefix>_migrations_lock`.
   */
  tablePrefix?: string;
  /** @deprecated Use `tablePrefix` (the same name); removed in the next version. Ignored when `tablePrefix` is set. */
  tableName?: string;
  /** Which SQL `db` speaks. Default: detected from the Kysely dialect (SQLite, PostgreSQL or MySQL). */
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
 * {tableName})`, default table `tenants`), for SQLite (≥ 3.35), MySQL/MariaDB or
 * PostgreSQL through your Kysely instance. Call `migrate()` once at
 * start-up: it creates the tables by code and is idempotent.
 *
 * Times are integer milliseconds (`bigint` in PostgreSQL), `settings` JSON
 * text. The slug has a unique index; memberships have the primary key
 * (tenant_id, user_id), an index on user_id (on PostgreSQL both hold the
 * whole row, `INCLUDE (…)`, so membership reads are index-only scans) and
 * reference the tenant with
 * `ON DELETE CASCADE` (deletes also remove them explicitly, in a
 * transaction, for SQLite connections without `foreign_keys`). Kysely
 * plugins on `db` are bypassed. The caller owns `db` and destroys it.
 *
 * @throws TypeError at creation for a malformed `tablePrefix`, an unknown
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
  const { q, prefix, dialect, traits, migrate } = pluginSql(
    db,
    { tablePrefix: options.tablePrefix ?? options.tableName, dialect: options.dialect },
    'tenants',
    'createSqlTenantStorage',
  );
  const t = tenantTables(prefix);

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
  const memberOf = async (db: Kysely<any>, tenantId: string, userId: string) => {
    const row = await db
      .selectFrom(t.members)
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .$castTo<MemberRow>()
      .executeTakeFirst();
    return row ? toMember(row) : null;
  };

  async function upsert(db: Kysely<any>, m: TenantMembership): Promise<void> {
    const row: MemberRow = {
      tenant_id: m.tenantId,
      user_id: m.userId,
      role: m.role,
      created_at: m.createdAt.getTime(),
    };
    const insert = db.insertInto(t.members).values(row);
    if (dialect === 'mysql') await insert.onDuplicateKeyUpdate({ role: m.role }).execute();
    else await insert.onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doUpdateSet({ role: m.role })).execute();
  }

  /**
   * A guarded change. The write is conditional (it happens only while another member holds `keepOwner`), so it
   * never takes the last holder: on SQLite (and D1, whose transactions cannot read) that one statement is atomic
   * by itself. PostgreSQL and MySQL run it in a transaction that first locks the tenant's row (`FOR UPDATE`), so
   * guarded changes of one tenant run one after another (under READ COMMITTED two conditional statements could
   * each remove a different owner).
   */
  async function guardedChange(c: GuardedChange) {
    if (dialect === 'sqlite') return guardedWrite(q, c);
    return q.transaction().execute(async (trx: Transaction<any>) => {
      await trx.selectFrom(t.tenants).select('id').where('id', '=', c.tenantId).forUpdate().execute();
      return guardedWrite(trx, c);
    });
  }

  async function guardedWrite(trx: Kysely<any>, c: GuardedChange) {
    let anotherHolder = sql<boolean>`exists (select 1 from ${sql.table(t.members)} as other where other.tenant_id = ${c.tenantId} and other.role = ${c.keepOwner} and other.user_id <> ${c.userId})`;
    // MySQL refuses a subquery on the table being changed: read it first (the tenant's row lock serializes it).
    if (dialect === 'mysql') {
      const { rows } = await sql<{ found: number }>`select ${anotherHolder} as found`.execute(trx);
      anotherHolder = sql<boolean>`${Number(rows[0]?.found) === 1 ? 1 : 0} = 1`;
    }
    const current = await memberOf(trx, c.tenantId, c.userId);
    if (c.role === null) {
      if (!current) return null;
      const result = await trx
        .deleteFrom(t.members)
        .where('tenant_id', '=', c.tenantId)
        .where('user_id', '=', c.userId)
        .where((eb) => eb.or([eb('role', '<>', c.keepOwner), anotherHolder]))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0 ? current : 'refused';
    }
    if (!current) {
      await upsert(trx, { tenantId: c.tenantId, userId: c.userId, role: c.role, createdAt: c.createdAt });
      return memberOf(trx, c.tenantId, c.userId);
    }
    let update = trx
      .updateTable(t.members)
      .set({ role: c.role })
      .where('tenant_id', '=', c.tenantId)
      .where('user_id', '=', c.userId);
    if (c.role !== c.keepOwner) update = update.where((eb) => eb.or([eb('role', '<>', c.keepOwner), anotherHolder]));
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? { ...current, role: c.role } : 'refused';
  }

  const backend: TenantBackend = {
    migrate: () => migrate(tenantMigrations(t, traits)),
    byId: (id) => one('id', id),
    bySlug: (slug) => one('slug', slug),
    async tenantsAfter(after, limit) {
      let query = q.selectFrom(t.tenants).selectAll();
      if (after !== undefined) query = query.where('id', '>', after);
      return (await query.orderBy('id').limit(limit).$castTo<TenantRow>().execute()).map(toTenant);
    },
    insert: (tenant) => guard(q.insertInto(t.tenants).values(toRow(tenant)).execute()),
    async replace(next) {
      const { id: _id, created_at: _created, ...changes } = toRow(next);
      await guard(q.updateTable(t.tenants).set(changes).where('id', '=', next.id).execute());
    },
    async remove(id) {
      const removeTenant = async (db: Kysely<any>) => {
        const result = await db.deleteFrom(t.tenants).where('id', '=', id).executeTakeFirst();
        await db.deleteFrom(t.members).where('tenant_id', '=', id).execute();
        return Number(result.numDeletedRows) > 0;
      };
      // D1's transactions are write-only batches that report no counts: on SQLite the tenant goes first, then its
      // memberships (a membership of a deleted tenant is never read as one).
      if (dialect === 'sqlite') return removeTenant(q);
      return q.transaction().execute(removeTenant);
    },
    putMember: (m) => upsert(q, m),
    member: (tenantId, userId) => memberOf(q, tenantId, userId),
    async membersAfter(tenantId, after, limit) {
      let query = q.selectFrom(t.members).selectAll().where('tenant_id', '=', tenantId);
      if (after !== undefined) query = query.where('user_id', '>', after);
      return (await query.orderBy('user_id').limit(limit).$castTo<MemberRow>().execute()).map(toMember);
    },
    memberships: (userId) =>
      q
        .selectFrom(t.members)
        .selectAll()
        .where('user_id', '=', userId)
        .$castTo<MemberRow>()
        .execute()
        .then((rows) => rows.map(toMember)),
    async removeMember(tenantId, userId) {
      const result = await q
        .deleteFrom(t.members)
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    guardedChange,
  };
  return tenantStorage(backend);
}
