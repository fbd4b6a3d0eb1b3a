import { afterAll, describe } from 'vitest';
import { postgresSchemas } from '../../../../../test-support/pg-schemas.js';
import { runUsernameStorageConformance } from './conformance.js';
import { createSqlUsernameStorage } from './sql.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgSchemas = await postgresSchemas('username_test');

describe.skipIf(!pgSchemas.available)('createSqlUsernameStorage on PostgreSQL', () => {
  afterAll(() => pgSchemas.dropAll());
  runUsernameStorageConformance('sql (postgres)', async () => {
    const db = await pgSchemas.isolated();
    return { storage: createSqlUsernameStorage(db), teardown: () => db.destroy() };
  });
});
