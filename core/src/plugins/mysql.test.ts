/**
 * The plugins' SQL storages and the tenant storage on MySQL/MariaDB (the server at `MYSQL_URL`), through
 * Kysely's `MysqlDialect` and `mysql2`: each passes the same conformance suite as on memory, SQLite, PostgreSQL
 * and D1. The file gets one fresh database; every storage gets fresh tables (its own prefix), dropped afterwards.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createMysqlAdapter } from '../storage/sql/mysql.js';
import { mysqlDatabases } from '../../../test-support/mysql-databases.js';
import { runAdminStorageConformance } from './admin/storage/conformance.js';
import { createSqlAdminStorage } from './admin/storage/sql.js';
import { runAuditStorageConformance } from './audit-log/storage/conformance.js';
import { createSqlAuditStorage } from './audit-log/storage/sql.js';
import { runInvitationStorageConformance } from './organizations/storage/conformance.js';
import { createSqlInvitationStorage } from './organizations/storage/sql.js';
import { runApiKeyStorageConformance } from './api-keys/storage/conformance.js';
import { createSqlApiKeyStorage } from './api-keys/storage/sql.js';
import { runTwoFactorStorageConformance } from './two-factor/storage/conformance.js';
import { createSqlTwoFactorStorage } from './two-factor/storage/sql.js';
import { runJwksStorageConformance } from './jwt/storage/conformance.js';
import { createSqlJwksStorage } from './jwt/storage/sql.js';
import { runTenantStorageConformance } from '../tenant/storage/conformance.js';
import { createSqlTenantStorage } from '../tenant/storage/sql.js';

// Under CI=true this throws when MariaDB/MySQL is down, failing the file.
const my = await mysqlDatabases('plugins_test');

describe.skipIf(!my.available)('plugin storages on MySQL/MariaDB', async () => {
  if (!my.available) return;
  afterAll(() => my.dropAll());
  const { db, database } = await my.isolated();

  let runs = 0;
  /** A fresh table prefix, and a teardown that drops every table under it (memberships before tenants). */
  function freshPrefix() {
    const prefix = `p${++runs}`;
    const teardown = async () => {
      await dropTables(db, database, prefix);
    };
    return { prefix, teardown };
  }

  // The dialect is detected from the Kysely dialect in every run.
  runAdminStorageConformance('sql (mysql)', async () => {
    const { prefix, teardown } = freshPrefix();
    return { storage: createSqlAdminStorage(db, { tablePrefix: prefix }), teardown };
  });
  runAuditStorageConformance('sql (mysql)', async () => {
    const { prefix, teardown } = freshPrefix();
    return { storage: createSqlAuditStorage(db, { tablePrefix: prefix }), teardown };
  });
  runInvitationStorageConformance('sql (mysql)', async () => {
    const { prefix, teardown } = freshPrefix();
    return { storage: createSqlInvitationStorage(db, { tablePrefix: prefix }), teardown };
  });
  runTwoFactorStorageConformance('sql (mysql)', async () => {
    const { prefix, teardown } = freshPrefix();
    return { storage: createSqlTwoFactorStorage(db, { tablePrefix: prefix }), teardown };
  });
  runApiKeyStorageConformance('sql (mysql)', async () => {
    const { prefix, teardown } = freshPrefix();
    return { storage: createSqlApiKeyStorage(db, { tableName: `${prefix}_api_keys` }), teardown };
  });
  runJwksStorageConformance('sql (mysql)', async () => {
    const { prefix, teardown } = freshPrefix();
    return { storage: createSqlJwksStorage(db, { tableName: `${prefix}_jwks` }), teardown };
  });
  runTenantStorageConformance('sql (mysql)', async () => {
    const { prefix, teardown } = freshPrefix();
    return { storage: createSqlTenantStorage(db, { tableName: `${prefix}_tenants` }), teardown };
  });

  it('every text column of every storage compares exactly: binary, NO PAD (no case folding, no trailing-space padding)', async () => {
    const { pool, db: own, database: fresh } = await my.isolated();
    await createMysqlAdapter({ pool }).migrate();
    await createSqlAdminStorage(own).migrate();
    await createSqlAuditStorage(own).migrate();
    await createSqlInvitationStorage(own).migrate();
    await createSqlTwoFactorStorage(own).migrate();
    await createSqlApiKeyStorage(own).migrate();
    await createSqlJwksStorage(own).migrate();
    await createSqlTenantStorage(own).migrate();
    const { rows } = await sql<{ table: string; column: string; collation: string }>`
      select table_name as \`table\`, column_name as \`column\`, collation_name as collation
      from information_schema.columns
      where table_schema = ${fresh} and collation_name is not null and table_name not like '%migrations%'`.execute(own);
    expect(rows.length).toBeGreaterThan(40);
    // MariaDB's and MySQL 8's binary NO PAD collations; utf8mb4_bin (PAD SPACE) would find 'abc' for 'abc '.
    const exact = new Set(['utf8mb4_nopad_bin', 'utf8mb4_0900_bin']);
    expect(rows.filter((row) => !exact.has(row.collation))).toStrictEqual([]);
  });
});

/** Drops the tables of `database` named `<prefix>_…`, foreign-key checks off so their order does not matter. */
async function dropTables(db: Kysely<any>, database: string, prefix: string): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = ${database} and table_name like ${`${prefix}\\_%`}`.execute(db);
  if (rows.length === 0) return;
  await db.connection().execute(async (connection) => {
    await sql`set foreign_key_checks = 0`.execute(connection);
    await sql`drop table ${sql.join(rows.map((row) => sql.table(row.name)))}`.execute(connection);
    await sql`set foreign_key_checks = 1`.execute(connection);
  });
}
