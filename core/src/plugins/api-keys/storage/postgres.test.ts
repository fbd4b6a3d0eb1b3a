import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSchemas } from '../../../../../test-support/pg-schemas.js';
import { runApiKeyStorageConformance } from './conformance.js';
import { createSqlApiKeyStorage } from './sql.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgSchemas = await postgresSchemas('api_keys_test');

describe.skipIf(!pgSchemas.available)('createSqlApiKeyStorage on PostgreSQL', () => {
  afterAll(() => pgSchemas.dropAll());
  /** A Kysely bound to a new, empty schema (dropped after the file). */
  const isolated = () => pgSchemas.isolated();

  runApiKeyStorageConformance('sql (postgres, dialect detected)', async () => {
    const db = await isolated();
    return { storage: createSqlApiKeyStorage(db), teardown: () => db.destroy() };
  });

  it('stores times as bigint, and two schemas with the same table names stay apart', async () => {
    const first = await isolated();
    const second = await isolated();
    const a = createSqlApiKeyStorage(first, { dialect: 'postgres' });
    const b = createSqlApiKeyStorage(second);
    await a.migrate();
    await b.migrate();
    const record = {
      id: 'k1',
      prefix: 'abcdefabcdef',
      secretHash: 'f'.repeat(64),
      userId: 'u1',
      name: null,
      permissions: null,
      roles: null,
      createdAt: new Date(),
      expiresAt: null,
      revokedAt: null,
    };
    await a.create(record);
    expect(await b.findByPrefix('abcdefabcdef')).toBeNull();
    expect(await a.findByPrefix('abcdefabcdef')).toStrictEqual(record);
    const { rows } = await sql<{
      data_type: string;
    }>`select data_type from information_schema.columns where table_schema = current_schema() and table_name = 'api_keys' and column_name = 'expires_at'`.execute(
      first,
    );
    expect(rows).toStrictEqual([{ data_type: 'bigint' }]);
    await first.destroy();
    await second.destroy();
  });
});
