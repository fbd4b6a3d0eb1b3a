import { afterAll, describe } from 'vitest';
import { postgresSchemas } from '../../../../../test-support/pg-schemas.js';
import { runSsoStorageConformance } from './conformance.test-helpers.js';
import { createSqlSsoStorage } from './sql.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgSchemas = await postgresSchemas('sso_storage_test');

describe.skipIf(!pgSchemas.available)('createSqlSsoStorage on PostgreSQL', () => {
  afterAll(() => pgSchemas.dropAll());
  runSsoStorageConformance('sql (postgres)', async () => {
    const db = await pgSchemas.isolated();
    return { storage: createSqlSsoStorage(db), teardown: () => db.destroy() };
  });
});
