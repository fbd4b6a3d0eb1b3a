import Database from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { queryPlan, searchesBy, sqliteSort, statementLog } from '../../../storage/sql/query-plan-test-support.js';
import { runApiKeyStorageConformance } from './conformance.js';
import { createSqlApiKeyStorage } from './sql.js';

const open = () => new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });

runApiKeyStorageConformance('sql (sqlite, dialect detected)', async () => {
  const db = open();
  return { storage: createSqlApiKeyStorage(db), teardown: () => db.destroy() };
});
runApiKeyStorageConformance('sql (sqlite, custom tablePrefix)', async () => {
  const db = open();
  return {
    storage: createSqlApiKeyStorage(db, { tablePrefix: 'service_keys', dialect: 'sqlite' }),
    teardown: () => db.destroy(),
  };
});

describe('createSqlApiKeyStorage on SQLite', () => {
  it('lists a user’s keys in order from the (user_id, created_at, id) index, without sorting them', async () => {
    const log = statementLog();
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }), log: log.log });
    const storage = createSqlApiKeyStorage(db);
    await storage.migrate();
    log.clear();
    await storage.listByUser('u1');
    const [statement] = log.statements.filter((s) => /^select/i.test(s.sql));
    const plan = await queryPlan(db, 'sqlite', statement!);
    expect(searchesBy(plan, 'user_id')).toBe(true);
    expect(sqliteSort(plan)).toBeNull();
    await db.destroy();
  });

  it('creates its tables under tableName and stores no secret column', async () => {
    const db = open();
    await createSqlApiKeyStorage(db, { tableName: 'keys' }).migrate();
    const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((x) => x.name).sort()).toStrictEqual(['keys', 'keys_migrations', 'keys_migrations_lock']);
    expect(tables.find((x) => x.name === 'keys')!.columns.map((c) => c.name)).not.toContain('secret');
    await db.destroy();
  });

  it('upgrades a table from before the roles column: old rows read with roles null, new rows keep theirs', async () => {
    const db = open();
    const storage = createSqlApiKeyStorage(db);
    await storage.migrate();
    // The state of an install made before migration 0002.
    await sql`alter table api_keys drop column roles`.execute(db);
    await db
      .deleteFrom('api_keys_migrations')
      .where('name', 'in', ['0002_api_key_roles', '0003_api_key_user_order'])
      .execute();
    await sql`insert into api_keys (id, prefix, secret_hash, user_id, name, permissions, created_at)
      values ('old', 'aaaaaaaaaaaa', ${'f'.repeat(64)}, 'u1', null, '["posts:read"]', 1700000000000)`.execute(db);
    await storage.migrate();
    expect(await storage.findByPrefix('aaaaaaaaaaaa')).toMatchObject({
      id: 'old',
      permissions: ['posts:read'],
      roles: null,
    });
    const fresh = {
      id: 'new',
      prefix: 'bbbbbbbbbbbb',
      secretHash: 'e'.repeat(64),
      userId: 'u1',
      name: null,
      permissions: [],
      roles: ['admin'],
      createdAt: new Date(1_700_000_001_000),
      expiresAt: null,
      revokedAt: null,
    };
    await storage.create(fresh);
    expect(await storage.findByPrefix('bbbbbbbbbbbb')).toStrictEqual(fresh);
    await db.destroy();
  });

  it('rejects a malformed tableName and an unknown dialect at creation', () => {
    const db = open();
    expect(() => createSqlApiKeyStorage(db, { tableName: 'keys; drop table users' })).toThrow(TypeError);
    expect(() => createSqlApiKeyStorage(db, { dialect: 'oracle' as never })).toThrow(/Unknown SQL dialect/);
    void db.destroy();
  });
});
