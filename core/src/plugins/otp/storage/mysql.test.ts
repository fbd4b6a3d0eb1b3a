import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { mysqlDatabases } from '../../../../../test-support/mysql-databases.js';
import { runOtpStorageConformance } from './conformance.test-helpers.js';
import { createSqlOtpStorage } from './sql.js';

// Under CI=true this throws when MariaDB/MySQL is down, failing the file.
const my = await mysqlDatabases('otp_test');

describe.skipIf(!my.available)('createSqlOtpStorage on MySQL/MariaDB', () => {
  afterAll(() => my.dropAll());
  runOtpStorageConformance('sql (mysql)', async () => {
    const { db, drop } = await my.isolated();
    return { storage: createSqlOtpStorage(db), teardown: drop };
  });

  it('compares hashes exactly (binary, NO PAD collation)', async () => {
    const { db, database, drop } = await my.isolated();
    await createSqlOtpStorage(db).migrate();
    const { rows } = await sql<{ collation: string }>`
      select collation_name as collation from information_schema.columns
      where table_schema = ${database} and table_name = 'otp_codes' and collation_name is not null`.execute(db);
    expect(rows.length).toBe(2);
    for (const row of rows) expect(['utf8mb4_nopad_bin', 'utf8mb4_0900_bin']).toContain(row.collation);
    await drop();
  });
});
