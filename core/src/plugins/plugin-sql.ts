/**
 * What the SQL storages of plugins share: the checked table prefix, the dialect, and running their own
 * migrations under `<prefix>_migrations`.
 * @module
 * @internal
 */
import type { Kysely, Migration } from 'kysely';
import { detectDialect, dialects, type DialectTraits, type SqlDialectName } from '../storage/sql/dialect.js';
import { runMigrations } from '../storage/sql/migrator.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,30}$/;

/** A plugin's SQL set-up. */
export interface PluginSql {
  /** `db` without its plugins (row names stay snake_case). */
  q: Kysely<any>;
  prefix: string;
  traits: DialectTraits;
  /** Runs `migrations(traits)` once per database, recorded in `<prefix>_migrations`. */
  migrate(migrations: Record<string, Migration>): Promise<void>;
}

/**
 * @param who The factory's name, for the dialect-detection error.
 * @throws TypeError for a malformed `tablePrefix` or an unknown or undetectable dialect.
 */
export function pluginSql(
  db: Kysely<any>,
  options: { tablePrefix?: string; dialect?: SqlDialectName },
  defaultPrefix: string,
  who: string,
): PluginSql {
  const prefix = options.tablePrefix ?? defaultPrefix;
  if (typeof prefix !== 'string' || !IDENTIFIER.test(prefix))
    throw new TypeError(`tablePrefix must match ${IDENTIFIER} (letters, digits, "_"); got ${JSON.stringify(prefix)}`);
  const dialect = options.dialect ?? detectDialect(db, who);
  const traits = dialects[dialect];
  if (!traits)
    throw new TypeError(`Unknown SQL dialect ${JSON.stringify(dialect)}: use 'sqlite', 'postgres' or 'mysql'`);
  const q = db.withoutPlugins();
  return {
    q,
    prefix,
    traits,
    migrate: (migrations) =>
      runMigrations(q, { migrations, table: `${prefix}_migrations`, lockTable: `${prefix}_migrations_lock`, dialect }),
  };
}
