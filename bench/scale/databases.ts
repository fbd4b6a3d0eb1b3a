/**
 * The databases of one scale run: a fresh SQLite file in a temporary folder, or a fresh PostgreSQL schema (when
 * `DATABASE_URL` is set), each with the kit's adapter and a Kysely instance on the same database for the plugin
 * and tenant storages and for seeding (on SQLite the adapter's own connection, as plugins use by default).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { createPostgresAdapter, createSqliteAdapter, type StorageAdapter } from '@framework/auth';
import { createSqlAdminStorage } from '@framework/auth/plugins/admin';
import { createSqlApiKeyStorage } from '@framework/auth/plugins/api-keys';
import { createSqlAuditStorage } from '@framework/auth/plugins/audit-log';
import { createSqlInvitationStorage } from '@framework/auth/plugins/organizations';
import { createSqlTenantStorage } from '@framework/auth/tenant';

export type Dialect = 'sqlite' | 'postgres';

/** The kit's storages on one database. */
export interface Storages {
  dialect: Dialect;
  db: Kysely<any>;
  adapter: StorageAdapter;
  audit: ReturnType<typeof createSqlAuditStorage>;
  apiKeys: ReturnType<typeof createSqlApiKeyStorage>;
  tenants: ReturnType<typeof createSqlTenantStorage>;
  admin: ReturnType<typeof createSqlAdminStorage>;
  invitations: ReturnType<typeof createSqlInvitationStorage>;
  /** Closes every connection and removes the database. */
  dispose(): Promise<void>;
}

function storagesOn(
  dialect: Dialect,
  db: Kysely<any>,
  adapter: StorageAdapter,
  dispose: () => Promise<void>,
): Storages {
  return {
    dialect,
    db,
    adapter,
    audit: createSqlAuditStorage(db),
    apiKeys: createSqlApiKeyStorage(db),
    tenants: createSqlTenantStorage(db),
    admin: createSqlAdminStorage(db),
    invitations: createSqlInvitationStorage(db),
    dispose,
  };
}

/** A new, migrated database of `dialect`. */
export async function openStorages(dialect: Dialect): Promise<Storages> {
  let storages: Storages;
  if (dialect === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'bench-scale-'));
    const filename = join(dir, 'auth.db');
    const adapter = createSqliteAdapter({ filename });
    await adapter.migrate();
    // The plugins' default: their tables on the adapter's own connection (its pragmas included).
    const db = await adapter.loadKysely!();
    storages = storagesOn(dialect, db, adapter, async () => {
      await adapter.close?.();
      await rm(dir, { recursive: true, force: true });
    });
  } else {
    const url = process.env.DATABASE_URL!;
    const schema = `bench_scale_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const pool = new pg.Pool({ connectionString: url, max: 4, options: `-c search_path=${schema}` });
    const adapter = createPostgresAdapter({ pool });
    await adapter.migrate();
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    storages = storagesOn(dialect, db, adapter, async () => {
      await db.destroy();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    });
  }
  for (const storage of [storages.audit, storages.apiKeys, storages.tenants, storages.admin, storages.invitations])
    await storage.migrate();
  return storages;
}

/**
 * Refreshes the planner's statistics after seeding. On PostgreSQL also vacuums, as autovacuum does to a table
 * that grew over time: the bulk-loaded rows would otherwise have their hint bits set (a page write) on the first
 * read of each page during the measurement, and their pages not marked all-visible, so no index-only scan.
 */
export async function analyze(storages: Storages): Promise<void> {
  await sql.raw(storages.dialect === 'postgres' ? 'vacuum (analyze)' : 'analyze').execute(storages.db);
}
