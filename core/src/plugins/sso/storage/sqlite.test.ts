import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { runSsoStorageConformance } from './conformance.test-helpers.js';
import { createSqlSsoStorage } from './sql.js';

runSsoStorageConformance('sql (sqlite)', async () => {
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
  return { storage: createSqlSsoStorage(db), teardown: () => db.destroy() };
});
