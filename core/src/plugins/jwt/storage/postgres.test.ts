import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSchemas } from '../../../../../test-support/pg-schemas.js';
import { tokenCipher } from '../../../storage/token-cipher.js';
import { createKeyRing } from '../key-ring.js';
import { runJwksStorageConformance } from './conformance.js';
import { createSqlJwksStorage } from './sql.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgSchemas = await postgresSchemas('jwks_test', { poolSize: 4 });

describe.skipIf(!pgSchemas.available)('createSqlJwksStorage on PostgreSQL', () => {
  afterAll(() => pgSchemas.dropAll());
  /** A Kysely bound to a new, empty schema (dropped after the file). */
  const isolated = () => pgSchemas.isolated();

  runJwksStorageConformance('sql (postgres, dialect detected)', async () => {
    const db = await isolated();
    return { storage: createSqlJwksStorage(db), teardown: () => db.destroy() };
  });

  it('stores times as bigint', async () => {
    const db = await isolated();
    await createSqlJwksStorage(db, { dialect: 'postgres' }).migrate();
    const { rows } = await sql<{
      data_type: string;
    }>`select data_type from information_schema.columns where table_schema = current_schema() and table_name = 'auth_jwks' and column_name = 'created_at'`.execute(
      db,
    );
    expect(rows).toStrictEqual([{ data_type: 'bigint' }]);
    await db.destroy();
  });

  it('two instances (two connection pools) rotating at once store one new key and sign with it', async () => {
    const first = await isolated();
    const second = pgSchemas.sameSchema(first);
    const clock = { t: Date.UTC(2030, 0, 1) };
    const ring = (db: Kysely<any>) =>
      createKeyRing({
        storage: createSqlJwksStorage(db),
        algorithm: 'EdDSA',
        rotateEvery: 3600,
        gracePeriod: 3600,
        activationDelay: 0,
        cipher: tokenCipher(['jwt-postgres-test-secret-0123456789abcdef']),
        now: () => clock.t,
      });
    await createSqlJwksStorage(first).migrate();
    const [a, b] = [ring(first), ring(second)];
    await a.signingKey();
    clock.t += 3600 * 1000;
    const signed = await Promise.all([a.signingKey(), b.signingKey(), a.signingKey(), b.signingKey()]);
    expect(new Set(signed.map((k) => k.kid)).size).toBe(1);
    expect(await createSqlJwksStorage(first).list()).toHaveLength(2);
    await first.destroy();
    await second.destroy();
  });
});
