import { afterAll, describe } from 'vitest';
import { postgresSchemas } from '../../../../../test-support/pg-schemas.js';
import { runTwoFactorStorageConformance } from './conformance.js';
import { createSqlTwoFactorStorage } from './sql.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgSchemas = await postgresSchemas('two_factor_test');

describe.skipIf(!pgSchemas.available)('createSqlTwoFactorStorage on PostgreSQL', () => {
  afterAll(() => pgSchemas.dropAll());
  runTwoFactorStorageConformance('sql (postgres)', async () => {
    const db = await pgSchemas.isolated();
    return { storage: createSqlTwoFactorStorage(db), teardown: () => db.destroy() };
  });
});
