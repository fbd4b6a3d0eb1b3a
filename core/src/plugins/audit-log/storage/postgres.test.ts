import { afterAll, describe } from 'vitest';
import { postgresSchemas } from '../../../../../test-support/pg-schemas.js';
import { runAuditStorageConformance } from './conformance.js';
import { createSqlAuditStorage } from './sql.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgSchemas = await postgresSchemas('audit_test');

describe.skipIf(!pgSchemas.available)('createSqlAuditStorage on PostgreSQL', () => {
  afterAll(() => pgSchemas.dropAll());
  runAuditStorageConformance('sql (postgres)', async () => {
    const db = await pgSchemas.isolated();
    return { storage: createSqlAuditStorage(db), teardown: () => db.destroy() };
  });
});
