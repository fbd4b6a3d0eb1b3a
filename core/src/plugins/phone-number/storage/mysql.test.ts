import { afterAll, describe } from 'vitest';
import { mysqlDatabases } from '../../../../../test-support/mysql-databases.js';
import { runPhoneNumberStorageConformance } from './conformance.js';
import { createSqlPhoneNumberStorage } from './sql.js';

// Under CI=true this throws when MariaDB/MySQL is down, failing the file.
const my = await mysqlDatabases('phone_test');

describe.skipIf(!my.available)('createSqlPhoneNumberStorage on MySQL/MariaDB', () => {
  afterAll(() => my.dropAll());
  runPhoneNumberStorageConformance('sql (mysql)', async () => {
    const { db, drop } = await my.isolated();
    return { storage: createSqlPhoneNumberStorage(db), teardown: drop };
  });
});
