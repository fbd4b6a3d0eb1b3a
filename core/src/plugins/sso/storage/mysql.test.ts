import { afterAll, describe } from 'vitest';
import { mysqlDatabases } from '../../../../../test-support/mysql-databases.js';
import { runSsoStorageConformance } from './conformance.test-helpers.js';
import { createSqlSsoStorage } from './sql.js';

// Under CI=true this throws when MariaDB/MySQL is down, failing the file.
const my = await mysqlDatabases('sso_storage_test');

describe.skipIf(!my.available)('createSqlSsoStorage on MySQL/MariaDB', () => {
  afterAll(() => my.dropAll());
  runSsoStorageConformance('sql (mysql)', async () => {
    const { db } = await my.isolated();
    return { storage: createSqlSsoStorage(db), teardown: () => db.destroy() };
  });
});
