import { afterAll, describe } from 'vitest';
import { mysqlDatabases } from '../../../../../test-support/mysql-databases.js';
import { runUsernameStorageConformance } from './conformance.js';
import { createSqlUsernameStorage } from './sql.js';

// Under CI=true this throws when MariaDB/MySQL is down, failing the file.
const my = await mysqlDatabases('username_test');

describe.skipIf(!my.available)('createSqlUsernameStorage on MySQL/MariaDB', () => {
  afterAll(() => my.dropAll());
  runUsernameStorageConformance('sql (mysql)', async () => {
    const { db, drop } = await my.isolated();
    return { storage: createSqlUsernameStorage(db), teardown: drop };
  });
});
