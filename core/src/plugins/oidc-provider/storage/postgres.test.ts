import { afterAll, describe } from 'vitest';
import { postgresSchemas } from '../../../../../test-support/pg-schemas.js';
import { runOidcProviderStorageConformance } from './conformance.test-helpers.js';
import { createSqlOidcProviderStorage } from './sql.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgSchemas = await postgresSchemas('oidc_provider_test');

describe.skipIf(!pgSchemas.available)('createSqlOidcProviderStorage on PostgreSQL', () => {
  afterAll(() => pgSchemas.dropAll());
  runOidcProviderStorageConformance('sql (postgres)', async () => {
    const db = await pgSchemas.isolated();
    return { storage: createSqlOidcProviderStorage(db), teardown: () => db.destroy() };
  });
});
