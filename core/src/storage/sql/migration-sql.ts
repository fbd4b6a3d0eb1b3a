/**
 * The body of `generateMigrationSql` (generate.ts), loaded on its first call: the schema's SQL rendered by Kysely
 * from the same migrations `adapter.migrate()` runs.
 * @module
 * @internal
 */
import { DummyDriver, Kysely } from 'kysely';
import { dialects, type SqlDialectName } from './dialect.js';
import { kyselyDialect } from './kysely-dialect.js';
import { migrations } from './migrations.js';
import { tableNames } from './tables.js';
import { addFieldColumn } from '../../user-fields/sql.js';
import { resolveUserFields } from '../../user-fields/definitions.js';
import type { UserOptions } from '../../user-fields/types.js';

/** Options of `generateMigrationSql` (generate.ts). */
export interface GenerateMigrationSqlOptions {
  dialect: SqlDialectName;
  /** As given to the adapter. Default `auth_`. */
  tablePrefix?: string;
  /**
   * The app's `createAuth({ user })`: each of `additionalFields` adds an `alter table … add column` (and a unique
   * index for a `unique` field) after the core tables. Default none.
   */
  user?: UserOptions;
}

/** A Kysely that records queries instead of running them. */
const recording = (dialect: SqlDialectName) => kyselyDialect(dialect, () => new DummyDriver());

/** See `generateMigrationSql`. */
export async function renderMigrationSql(options: GenerateMigrationSqlOptions): Promise<string> {
  const traits = dialects[options.dialect];
  if (!traits)
    throw new TypeError(`Unknown SQL dialect ${JSON.stringify(options.dialect)}: use 'sqlite', 'postgres' or 'mysql'`);
  const t = tableNames(options.tablePrefix);
  const fields = resolveUserFields(options.user?.additionalFields);
  const statements: string[] = [];
  const db = new Kysely<any>({
    dialect: recording(options.dialect),
    log: (event) => {
      if (event.level === 'query') statements.push(event.query.sql);
    },
  });
  const all = migrations(t, traits);
  const out: string[] = [
    `-- @framework/auth storage schema (${options.dialect}, tables ${t.users.replace(/users$/, '')}*)`,
  ];
  for (const [name, migration] of Object.entries(all)) {
    statements.length = 0;
    await migration.up(db);
    out.push(`\n-- ${name}`, ...statements.map((s) => `${s};`));
  }
  if (fields.length > 0) {
    statements.length = 0;
    for (const field of fields) for (const step of addFieldColumn(db, t.users, field, traits)) await step.execute();
    out.push(
      '\n-- user.additionalFields (adapter.migrate() adds the ones a table lacks)',
      ...statements.map((s) => `${s};`),
    );
  }
  const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;
  const at = quote(new Date(0).toISOString());
  const name = (identifier: string) => (options.dialect === 'mysql' ? `\`${identifier}\`` : `"${identifier}"`);
  out.push(
    '\n-- Kysely migrator bookkeeping: adapter.migrate() then finds every migration above applied',
    `create table if not exists ${name(t.migrations)} (${name('name')} varchar(255) not null primary key, ${name('timestamp')} varchar(255) not null);`,
    `create table if not exists ${name(t.migrationLock)} (${name('id')} varchar(255) not null primary key, ${name('is_locked')} integer default 0 not null);`,
    ...Object.keys(all).map(
      (migration) =>
        `insert into ${name(t.migrations)} (${name('name')}, ${name('timestamp')}) values (${quote(migration)}, ${at});`,
    ),
  );
  await db.destroy();
  return `${out.join('\n')}\n`;
}
