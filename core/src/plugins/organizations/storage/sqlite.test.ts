import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { runInvitationStorageConformance } from './conformance.js';
import { createSqlInvitationStorage } from './sql.js';

runInvitationStorageConformance('sql (sqlite)', async () => {
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
  return { storage: createSqlInvitationStorage(db), teardown: () => db.destroy() };
});
