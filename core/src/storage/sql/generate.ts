/**
 * `generateMigrationSql`: the SQL of the storage adapter's schema for apps that migrate outside start-up (a
 * migration tool, a DBA's review), rendered by Kysely from the same migrations `adapter.migrate()` runs. Kysely
 * and the migrations load on the first call.
 * @module
 */
import type { GenerateMigrationSqlOptions } from './migration-sql.js';

export type { GenerateMigrationSqlOptions };

/**
 * The SQL that creates the adapter's tables from scratch, one statement per line group, ending with the
 * bookkeeping rows of Kysely's migrator (`<prefix>migrations`), so a later `adapter.migrate()` (or
 * `auth.migrate()`) at start-up finds every migration applied and does nothing. Plugin storages keep their own
 * tables and migrations (run them with `auth.migrate()`).
 * @throws TypeError for an unknown dialect or a malformed `tablePrefix`; AuthConfigError (`INVALID_CONFIG`) for
 *   a malformed `user.additionalFields`, as `createAuth` would.
 * @example
 * ```ts
 * import { writeFile } from 'node:fs/promises';
 * import { generateMigrationSql } from '@framework/auth';
 *
 * await writeFile('migrations/0001_auth.sql', await generateMigrationSql({ dialect: 'postgres' }));
 * ```
 */
export async function generateMigrationSql(options: GenerateMigrationSqlOptions): Promise<string> {
  const { renderMigrationSql } = await import('./migration-sql.js');
  return renderMigrationSql(options);
}
