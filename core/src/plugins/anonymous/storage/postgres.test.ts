import { afterAll, describe } from 'vitest';
import { postgresSchemas } from '../../../../../test-support/pg-schemas.js';
import { runAnonymousStorageConformance } from './conformance.js';
import { createSqlAnonymousStorage } from './sql.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgSchemas = await postgresSchemas('anonymous_test');

describe.skipIf(!pgSchemas.available)('createSqlAnonymousStorage on PostgreSQL', () => {
  afterAll(() => pgSchemas.dropAll());
  runAnonymousStorageConformance('sql (postgres)', async () => {
    const db = await pgSchemas.isolated();
    return { storage: createSqlAnonymousStorage(db), teardown: () => db.destroy() };
  });
});
