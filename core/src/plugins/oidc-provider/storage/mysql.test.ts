import { afterAll, describe } from 'vitest';
import { mysqlDatabases } from '../../../../../test-support/mysql-databases.js';
import { runOidcProviderStorageConformance } from './conformance.test-helpers.js';
import { createSqlOidcProviderStorage } from './sql.js';

// Under CI=true this throws when MariaDB/MySQL is down, failing the file.
const my = await mysqlDatabases('oidc_provider_test');

describe.skipIf(!my.available)('createSqlOidcProviderStorage on MySQL/MariaDB', () => {
  afterAll(() => my.dropAll());
  runOidcProviderStorageConformance('sql (mysql)', async () => {
    const { db, drop } = await my.isolated();
    return { storage: createSqlOidcProviderStorage(db), teardown: drop };
  });
});
