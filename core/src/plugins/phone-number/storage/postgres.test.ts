import { afterAll, describe } from 'vitest';
import { postgresSchemas } from '../../../../../test-support/pg-schemas.js';
import { runPhoneNumberStorageConformance } from './conformance.js';
import { createSqlPhoneNumberStorage } from './sql.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgSchemas = await postgresSchemas('phone_test');

describe.skipIf(!pgSchemas.available)('createSqlPhoneNumberStorage on PostgreSQL', () => {
  afterAll(() => pgSchemas.dropAll());
  runPhoneNumberStorageConformance('sql (postgres)', async () => {
    const db = await pgSchemas.isolated();
    return { storage: createSqlPhoneNumberStorage(db), teardown: () => db.destroy() };
  });
});
