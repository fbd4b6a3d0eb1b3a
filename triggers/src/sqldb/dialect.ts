import type { Kysely } from 'kysely';
import { TriggerDefinitionError } from '../errors.js';

/** The SQL dialects change capture supports. */
export type ChangeDialect = 'postgres' | 'sqlite';

/**
 * The dialect of a Kysely instance, from its adapter (`PostgresAdapter`,
 * `SqliteAdapter`), unless given.
 *
 * @throws {TriggerDefinitionError} for other dialects
 */
export function dialectOf(db: Kysely<any>, given?: ChangeDialect): ChangeDialect {
  if (given) return given;
  const name = (db.getExecutor().adapter as object).constructor.name.toLowerCase();
  if (name.includes('postgres')) return 'postgres';
  if (name.includes('sqlite')) return 'sqlite';
  throw new TriggerDefinitionError(
    'dialect',
    `change capture supports PostgreSQL and SQLite; this Kysely uses ${name} (pass dialect to override)`,
  );
}

/** `name` double-quoted as an SQL identifier, after checking it is a plain identifier. */
export function identifier(name: string, path = 'tables'): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new TriggerDefinitionError(path, `'${name}' is not a plain table or column name (letters, digits and "_")`);
  }
  return `"${name}"`;
}

/** The outbox table's name. */
export const OUTBOX = 'framework_changes';
/** The PostgreSQL NOTIFY channel the capture triggers signal. */
export const CHANNEL = 'framework_changes';
