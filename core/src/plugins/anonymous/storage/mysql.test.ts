import { afterAll, describe } from 'vitest';
import { mysqlDatabases } from '../../../../../test-support/mysql-databases.js';
import { runAnonymousStorageConformance } from './conformance.js';
import { createSqlAnonymousStorage } from './sql.js';

// Under CI=true this throws when MariaDB/MySQL is down, failing the file.
const my = await mysqlDatabases('anonymous_test');

describe.skipIf(!my.available)('createSqlAnonymousStorage on MySQL/MariaDB', () => {
  afterAll(() => my.dropAll());
  runAnonymousStorageConformance('sql (mysql)', async () => {
    const { db, drop } = await my.isolated();
    return { storage: createSqlAnonymousStorage(db), teardown: drop };
  });
});
