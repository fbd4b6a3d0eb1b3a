/**
 * The Kysely classes the SQL adapters open their connections with, loaded through a relative `import()` once an
 * adapter opens: the kit reaches packages by a bare dynamic `import()` only when they are optional and Node-only
 * (the drivers), so a bundler set to leave those out (as for workerd) still bundles Kysely.
 * @module
 * @internal
 */
export { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
