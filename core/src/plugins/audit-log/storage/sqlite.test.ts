import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { runAuditStorageConformance } from './conformance.js';
import { createSqlAuditStorage } from './sql.js';

runAuditStorageConformance('sql (sqlite)', async () => {
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
  return { storage: createSqlAuditStorage(db), teardown: () => db.destroy() };
});
