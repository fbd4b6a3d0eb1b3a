/**
 * A Kysely `Dialect` for one of the kit's SQL dialects over any driver: Kysely's own adapter, query compiler and
 * introspector for it.
 * @module
 * @internal
 */
import {
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type Dialect,
  type Driver,
} from 'kysely';
import type { SqlDialectName } from './dialect.js';

const PARTS = {
  sqlite: { adapter: SqliteAdapter, compiler: SqliteQueryCompiler, introspector: SqliteIntrospector },
  postgres: { adapter: PostgresAdapter, compiler: PostgresQueryCompiler, introspector: PostgresIntrospector },
  mysql: { adapter: MysqlAdapter, compiler: MysqlQueryCompiler, introspector: MysqlIntrospector },
} as const;

/**
 * `dialect`'s Kysely parts with `createDriver`.
 * @throws TypeError for an unknown dialect.
 */
export function kyselyDialect(dialect: SqlDialectName, createDriver: () => Driver): Dialect {
  const parts = PARTS[dialect];
  if (!parts) throw new TypeError(`Unknown SQL dialect ${JSON.stringify(dialect)}`);
  return {
    createAdapter: () => new parts.adapter(),
    createDriver,
    createQueryCompiler: () => new parts.compiler(),
    createIntrospector: (db) => new parts.introspector(db),
  };
}
