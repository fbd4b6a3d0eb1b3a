import { afterAll, describe } from 'vitest';
import { postgresSchemas } from '../../../../../test-support/pg-schemas.js';
import { runOtpStorageConformance } from './conformance.test-helpers.js';
import { createSqlOtpStorage } from './sql.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgSchemas = await postgresSchemas('otp_test');

describe.skipIf(!pgSchemas.available)('createSqlOtpStorage on PostgreSQL', () => {
  afterAll(() => pgSchemas.dropAll());
  runOtpStorageConformance('sql (postgres)', async () => {
    const db = await pgSchemas.isolated();
    return { storage: createSqlOtpStorage(db), teardown: () => db.destroy() };
  });
});
