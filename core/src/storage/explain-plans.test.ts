/**
 * Every statement the storage adapters issue reads the tables that grow with users and sessions through an
 * index. The statements are captured from runs of the conformance suites (the SQL adapter, the Drizzle
 * adapter, and the plugins' and tenants' SQL storages), on SQLite and on PostgreSQL, through Kysely's `log` hook
 * and Drizzle's `logger`; then each is explained on a migrated database: SQLite `EXPLAIN QUERY PLAN` (a
 * `SCAN <table>` without an index fails), PostgreSQL `EXPLAIN (FORMAT JSON)` with `enable_seqscan = off` (a
 * `Seq Scan` that remains has no index to use, so it fails).
 *
 * `KNOWN_FULL_SCANS` lists the scans that are accepted today, each with its reason; a listed scan that is gone
 * fails too, so the list only shrinks.
 */
import Database from 'better-sqlite3';
import { drizzle as sqliteDrizzle } from 'drizzle-orm/better-sqlite3';
import { drizzle as pgDrizzle } from 'drizzle-orm/node-postgres';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, type KyselyConfig } from 'kysely';
import type { Pool } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runAdminStorageConformance } from '../plugins/admin/storage/conformance.js';
import { createSqlAdminStorage } from '../plugins/admin/storage/sql.js';
import { runApiKeyStorageConformance } from '../plugins/api-keys/storage/conformance.js';
import { createSqlApiKeyStorage } from '../plugins/api-keys/storage/sql.js';
import { runAuditStorageConformance } from '../plugins/audit-log/storage/conformance.js';
import { createSqlAuditStorage } from '../plugins/audit-log/storage/sql.js';
import { runInvitationStorageConformance } from '../plugins/organizations/storage/conformance.js';
import { createSqlInvitationStorage } from '../plugins/organizations/storage/sql.js';
import { runTwoFactorStorageConformance } from '../plugins/two-factor/storage/conformance.js';
import { createSqlTwoFactorStorage } from '../plugins/two-factor/storage/sql.js';
import { runTenantStorageConformance } from '../tenant/storage/conformance.js';
import { createSqlTenantStorage } from '../tenant/storage/sql.js';
import { runStorageConformance } from './conformance.js';
import { CONFORMANCE_USER_FIELDS } from './conformance/user-fields.js';
import { createDrizzleAdapter } from './drizzle/adapter.js';
import { pgPools } from './drizzle/drizzle-test-support.js';
import { createSqlAdapter } from './sql/adapter.js';

type Dialect = 'sqlite' | 'postgres';
interface Statement {
  sql: string;
  parameters: readonly unknown[];
  /** Which suite issued it first. */
  source: string;
}

/** Distinct statements per dialect, by SQL text. */
const seen: Record<Dialect, Map<string, Statement>> = { sqlite: new Map(), postgres: new Map() };
const DML = /^\s*(select|insert|update|delete|with)\b/i;
const record = (dialect: Dialect, source: string, sql: string, parameters: readonly unknown[]) => {
  if (DML.test(sql) && !seen[dialect].has(sql)) seen[dialect].set(sql, { sql, parameters: [...parameters], source });
};
const kyselyLog =
  (dialect: Dialect, source: string): KyselyConfig['log'] =>
  (event) => {
    if (event.level === 'query') record(dialect, source, event.query.sql, event.query.parameters);
  };
const drizzleLogger = (dialect: Dialect, source: string) => ({
  logQuery: (sql: string, parameters: unknown[]) => record(dialect, source, sql, parameters),
});

/** Tables that do not grow with users or sessions: migration bookkeeping and the JWT signing keys. */
const FIXED_SIZE = /_migrations$|_migrations_lock$|^auth_jwks$|^sqlite_/;

/**
 * Full scans accepted today: `[dialect, table, a piece of the statement, why]`. Each must still be a scan (the
 * test fails when it is gone, so fixed entries are removed).
 */
const KNOWN_FULL_SCANS: [Dialect, string, string, string][] = [];

/** A connection source for one dialect: a fresh, empty database per call. */
interface Databases {
  kysely(source: string): Promise<{ db: Kysely<any>; teardown: () => Promise<void> }>;
  drizzleAdapter(
    source: string,
  ): Promise<{ adapter: ReturnType<typeof createDrizzleAdapter>; teardown: () => Promise<void> }>;
}

const sqliteDatabases: Databases = {
  async kysely(source) {
    const db = new Kysely<any>({
      dialect: new SqliteDialect({ database: new Database(':memory:') }),
      log: kyselyLog('sqlite', source),
    });
    return { db, teardown: () => db.destroy() };
  },
  async drizzleAdapter(source) {
    const client = new Database(':memory:');
    const adapter = createDrizzleAdapter(sqliteDrizzle(client, { logger: drizzleLogger('sqlite', source) }));
    return { adapter, teardown: async () => void client.close() };
  },
};

function pgDatabases(pools: () => Promise<Pool>): Databases {
  return {
    async kysely(source) {
      const pool = await pools();
      const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }), log: kyselyLog('postgres', source) });
      return { db, teardown: () => db.destroy() };
    },
    async drizzleAdapter(source) {
      const pool = await pools();
      const adapter = createDrizzleAdapter(pgDrizzle(pool, { logger: drizzleLogger('postgres', source) }));
      return { adapter, teardown: () => pool.end() };
    },
  };
}

/** Runs every suite on `dbs`, recording what they issue. */
function captureSuites(name: string, dbs: Databases) {
  runStorageConformance(`${name}, SQL adapter (recorded)`, async () => {
    const { db, teardown } = await dbs.kysely('sql adapter');
    return { adapter: createSqlAdapter({ db, dialect: name as Dialect }), teardown };
  });
  runStorageConformance(`${name}, Drizzle adapter (recorded)`, () => dbs.drizzleAdapter('drizzle adapter'));
  const plugin =
    <S>(source: string, make: (db: Kysely<any>) => S) =>
    async () => {
      const { db, teardown } = await dbs.kysely(source);
      return { storage: make(db), teardown };
    };
  runAdminStorageConformance(
    `${name} (recorded)`,
    plugin('admin', (db) => createSqlAdminStorage(db)),
  );
  runAuditStorageConformance(
    `${name} (recorded)`,
    plugin('audit log', (db) => createSqlAuditStorage(db)),
  );
  runInvitationStorageConformance(
    `${name} (recorded)`,
    plugin('invitations', (db) => createSqlInvitationStorage(db)),
  );
  runTwoFactorStorageConformance(
    `${name} (recorded)`,
    plugin('two-factor', (db) => createSqlTwoFactorStorage(db)),
  );
  runApiKeyStorageConformance(
    `${name} (recorded)`,
    plugin('api keys', (db) => createSqlApiKeyStorage(db)),
  );
  runTenantStorageConformance(
    `${name} (recorded)`,
    plugin('tenants', (db) => createSqlTenantStorage(db)),
  );
}

/** Creates every table (default names) on `db`, recording nothing. */
async function migrateAll(db: Kysely<any>, dialect: Dialect) {
  const adapter = createSqlAdapter({ db, dialect });
  adapter.configureUserFields!(CONFORMANCE_USER_FIELDS); // the custom-field columns the conformance suite adds
  await adapter.migrate();
  for (const storage of [
    createSqlAdminStorage(db),
    createSqlAuditStorage(db),
    createSqlInvitationStorage(db),
    createSqlTwoFactorStorage(db),
    createSqlApiKeyStorage(db),
    createSqlTenantStorage(db),
  ])
    await storage.migrate();
}

/** The tables of `db` (bookkeeping and fixed-size ones left out): those whose full scans fail. */
async function growingTables(db: Kysely<any>, dialect: Dialect): Promise<Set<string>> {
  const list =
    dialect === 'sqlite'
      ? "select name from sqlite_master where type = 'table'"
      : 'select table_name as name from information_schema.tables where table_schema = current_schema()';
  const { rows } = await db.executeQuery<{ name: string }>(CompiledQuery.raw(list));
  return new Set(rows.map((r) => r.name).filter((name) => !FIXED_SIZE.test(name)));
}

/** `"table" as "alias"` in `sql` → alias → table (SQLite's plans name a table by its alias). */
const aliasesIn = (sql: string) =>
  new Map([...sql.matchAll(/"(\w+)" as "(\w+)"/g)].map(([, table, alias]) => [alias!, table!] as const));

/** The tables `statement` reads in full: SQLite `SCAN t` without an index, PostgreSQL `Seq Scan` nodes. */
async function fullScans(db: Kysely<any>, dialect: Dialect, statement: Statement): Promise<string[]> {
  if (dialect === 'sqlite') {
    const { rows } = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
    );
    const aliases = aliasesIn(statement.sql);
    return rows
      .map((r) => /^SCAN (\w+)(?!.*\bUSING\b)/.exec(r.detail)?.[1])
      .filter((name): name is string => !!name)
      .map((name) => aliases.get(name) ?? name);
  }
  return db.connection().execute(async (connection) => {
    await connection.executeQuery(CompiledQuery.raw('begin'));
    try {
      await connection.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
      const { rows } = await connection.executeQuery<{ 'QUERY PLAN': unknown }>(
        CompiledQuery.raw(`explain (format json) ${statement.sql}`, [...statement.parameters]),
      );
      const scans: string[] = [];
      const walk = (node: Record<string, any>) => {
        if (node['Node Type'] === 'Seq Scan') scans.push(node['Relation Name']);
        for (const child of node.Plans ?? []) walk(child);
      };
      const plan = rows[0]!['QUERY PLAN'];
      walk((typeof plan === 'string' ? JSON.parse(plan) : plan)[0].Plan);
      return scans;
    } finally {
      await connection.executeQuery(CompiledQuery.raw('rollback'));
    }
  });
}

/** Explains every recorded statement; returns the full scans of growing tables. */
async function scansOf(db: Kysely<any>, dialect: Dialect): Promise<{ table: string; statement: Statement }[]> {
  const growing = await growingTables(db, dialect);
  const found: { table: string; statement: Statement }[] = [];
  for (const statement of seen[dialect].values()) {
    for (const table of await fullScans(db, dialect, statement))
      if (growing.has(table)) found.push({ table, statement });
  }
  return found;
}

function checkPlans(dialect: Dialect, open: () => Promise<{ db: Kysely<any>; teardown: () => Promise<void> }>) {
  it(`no statement on ${dialect} reads a growing table in full (beyond KNOWN_FULL_SCANS)`, async () => {
    const { db, teardown } = await open();
    try {
      await migrateAll(db, dialect);
      const statements = [...seen[dialect].values()];
      // Every suite was recorded (a capture that silently stopped would make this test pass vacuously).
      expect(new Set(statements.map((s) => s.source))).toStrictEqual(
        new Set([
          'sql adapter',
          'drizzle adapter',
          'admin',
          'audit log',
          'invitations',
          'two-factor',
          'api keys',
          'tenants',
        ]),
      );
      const scans = await scansOf(db, dialect);
      const known = KNOWN_FULL_SCANS.filter(([d]) => d === dialect);
      const isKnown = (scan: { table: string; statement: Statement }) =>
        known.some(([, table, piece]) => table === scan.table && scan.statement.sql.includes(piece));
      const unexpected = scans
        .filter((scan) => !isKnown(scan))
        .map((s) => `${s.table} ← ${s.statement.source}: ${s.statement.sql}`);
      expect(unexpected, `${statements.length} statements explained`).toStrictEqual([]);
      const gone = known.filter(
        ([, table, piece]) => !scans.some((s) => s.table === table && s.statement.sql.includes(piece)),
      );
      expect(gone, 'listed scans that are fixed: remove them from KNOWN_FULL_SCANS').toStrictEqual([]);
    } finally {
      await teardown();
    }
  }, 120_000); // hundreds of EXPLAINs, one transaction each on PostgreSQL
}

describe('query plans on SQLite', () => {
  captureSuites('sqlite', sqliteDatabases);
  checkPlans('sqlite', async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    return { db, teardown: () => db.destroy() };
  });
});

const pg = await pgPools('explain_test');
describe.skipIf(!pg.available)('query plans on PostgreSQL', () => {
  afterAll(() => pg.dropAll());
  const databases = pgDatabases(() => pg.pool());
  captureSuites('postgres', databases);
  checkPlans('postgres', async () => {
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: await pg.pool() }) });
    return { db, teardown: () => db.destroy() };
  });
});
