/**
 * `framework auth generate`: the SQL of the plugins' own tables. Each plugin's SQL storage keeps its tables and its
 * migrations apart from the adapter's (`<prefix>_migrations`); this runs each storage's real `migrate()` against a
 * Kysely that executes nothing and records what it would send, so the script is exactly what `auth.migrate()` runs.
 * @module
 * @internal
 */
import * as kysely from 'kysely';
import type { Dialect, Kysely } from 'kysely';

/** The dialects `auth generate` renders. */
export type SqlDialect = 'sqlite' | 'postgres' | 'mysql';

type Factory = (db: Kysely<any>, options: { dialect: SqlDialect }) => { migrate(): Promise<void> };

/** The plugins with SQL storages: the name `--plugins` takes, its factory's module and export. */
export const PLUGIN_STORAGES: Record<string, { factory: string; load: () => Promise<Factory> }> = {
  'two-factor': {
    factory: 'createSqlTwoFactorStorage',
    load: async () => (await import('@framework/auth/plugins/two-factor')).createSqlTwoFactorStorage,
  },
  admin: {
    factory: 'createSqlAdminStorage',
    load: async () => (await import('@framework/auth/plugins/admin')).createSqlAdminStorage,
  },
  organizations: {
    factory: 'createSqlInvitationStorage',
    load: async () => (await import('@framework/auth/plugins/organizations')).createSqlInvitationStorage,
  },
  'audit-log': {
    factory: 'createSqlAuditStorage',
    load: async () => (await import('@framework/auth/plugins/audit-log')).createSqlAuditStorage,
  },
  'api-keys': {
    factory: 'createSqlApiKeyStorage',
    load: async () => (await import('@framework/auth/plugins/api-keys')).createSqlApiKeyStorage,
  },
  jwt: {
    factory: 'createSqlJwksStorage',
    load: async () => (await import('@framework/auth/plugins/jwt')).createSqlJwksStorage,
  },
  anonymous: {
    factory: 'createSqlAnonymousStorage',
    load: async () => (await import('@framework/auth/plugins/anonymous')).createSqlAnonymousStorage,
  },
  username: {
    factory: 'createSqlUsernameStorage',
    load: async () => (await import('@framework/auth/plugins/username')).createSqlUsernameStorage,
  },
  'phone-number': {
    factory: 'createSqlPhoneNumberStorage',
    load: async () => (await import('@framework/auth/plugins/phone-number')).createSqlPhoneNumberStorage,
  },
  'oidc-provider': {
    factory: 'createSqlOidcProviderStorage',
    load: async () => (await import('@framework/auth/plugins/oidc-provider')).createSqlOidcProviderStorage,
  },
  sso: {
    factory: 'createSqlSsoStorage',
    load: async () => (await import('@framework/auth/plugins/sso')).createSqlSsoStorage,
  },
};

/** Kysely's own adapter, introspector and query compiler of each dialect. */
const KYSELY_PARTS = {
  sqlite: [kysely.SqliteAdapter, kysely.SqliteIntrospector, kysely.SqliteQueryCompiler],
  postgres: [kysely.PostgresAdapter, kysely.PostgresIntrospector, kysely.PostgresQueryCompiler],
  mysql: [kysely.MysqlAdapter, kysely.MysqlIntrospector, kysely.MysqlQueryCompiler],
} as const;

/** A Kysely for `dialect` that runs nothing (every query answers no rows) and hands each query to `record`. */
function recordingDb(dialect: SqlDialect, record: (sql: string, parameters: readonly unknown[]) => void): Kysely<any> {
  const [Adapter, Introspector, Compiler] = KYSELY_PARTS[dialect];
  const recording: Dialect = {
    createAdapter: () => new Adapter(),
    createDriver: () => new kysely.DummyDriver(),
    createIntrospector: (db) => new Introspector(db),
    createQueryCompiler: () => new Compiler(),
  };
  return new kysely.Kysely<any>({
    dialect: recording,
    log: (event) => {
      if (event.level === 'query') record(event.query.sql, event.query.parameters);
    },
  });
}

/** An ISO timestamp (the migrator's "applied at"): fixed at the epoch so the script is the same on every run. */
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$/;

/** One parameter as an SQL literal. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  const text = TIMESTAMP.test(String(value)) ? new Date(0).toISOString() : String(value);
  return `'${text.replace(/'/g, "''")}'`;
}

/** `sql` with its placeholders (`$1` on PostgreSQL, `?` elsewhere) replaced by the parameters' literals. */
function inline(sql: string, parameters: readonly unknown[], dialect: SqlDialect): string {
  if (parameters.length === 0) return sql;
  if (dialect === 'postgres') return sql.replace(/\$(\d+)/g, (_, n: string) => literal(parameters[Number(n) - 1]));
  let next = 0;
  return sql.replace(/\?/g, () => literal(parameters[next++]));
}

/** What the script keeps: schema changes, and the rows recording applied migrations (not the lock row). */
const KEPT = /^(?:create|alter|drop)\b|^insert into [`"]?\w+_migrations[`"]? /i;

/**
 * The SQL of one plugin storage's tables and its migration bookkeeping, as its `migrate()` issues it on an empty
 * database: the statements that change the schema or record the applied migrations (the migrator's reads, its lock
 * row and its lock queries are left out; the migrator adds the lock row itself when it next runs).
 */
export async function pluginTablesSql(plugin: string, dialect: SqlDialect): Promise<string[]> {
  const statements: string[] = [];
  const db = recordingDb(dialect, (sql, parameters) => {
    const statement = inline(sql, parameters, dialect).trim();
    if (KEPT.test(statement)) statements.push(`${statement};`);
  });
  try {
    const create = await PLUGIN_STORAGES[plugin]!.load();
    await create(db, { dialect }).migrate();
  } finally {
    await db.destroy();
  }
  return statements;
}
