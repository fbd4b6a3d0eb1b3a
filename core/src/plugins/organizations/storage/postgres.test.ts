import { afterAll, describe } from 'vitest';
import { postgresSchemas } from '../../../../../test-support/pg-schemas.js';
import { runInvitationStorageConformance } from './conformance.js';
import { createSqlInvitationStorage } from './sql.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgSchemas = await postgresSchemas('org_invitations_test');

describe.skipIf(!pgSchemas.available)('createSqlInvitationStorage on PostgreSQL', () => {
  afterAll(() => pgSchemas.dropAll());
  runInvitationStorageConformance('sql (postgres)', async () => {
    const db = await pgSchemas.isolated();
    return { storage: createSqlInvitationStorage(db), teardown: () => db.destroy() };
  });
});
