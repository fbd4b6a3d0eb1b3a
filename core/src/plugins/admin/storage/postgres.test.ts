import { afterAll, describe } from 'vitest';
import { postgresSchemas } from '../../../../../test-support/pg-schemas.js';
import { runAdminStorageConformance } from './conformance.js';
import { createSqlAdminStorage } from './sql.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgSchemas = await postgresSchemas('admin_test');

describe.skipIf(!pgSchemas.available)('createSqlAdminStorage on PostgreSQL', () => {
  afterAll(() => pgSchemas.dropAll());
  runAdminStorageConformance('sql (postgres)', async () => {
    const db = await pgSchemas.isolated();
    return { storage: createSqlAdminStorage(db), teardown: () => db.destroy() };
  });
});
