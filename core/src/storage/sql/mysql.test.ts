import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { runStorageConformance } from '../conformance.js';
import { generateMigrationSql } from './generate.js';
import { createMysqlAdapter } from './mysql.js';
import { mysqlDatabases } from '../../../../test-support/mysql-databases.js';

// Under CI=true this throws when MariaDB/MySQL is down, failing the file.
const my = await mysqlDatabases('auth_test');

describe.skipIf(!my.available)('createMysqlAdapter', () => {
  afterAll(() => my.dropAll());

  runStorageConformance('mysql', async () => {
    const { pool, drop } = await my.isolated();
    return { adapter: createMysqlAdapter({ pool }), teardown: drop };
  });

  it('with a url: imports mysql2, creates InnoDB utf8mb4_nopad_bin tables, and ends its pool on close', async () => {
    const { url, db, database } = await my.isolated();
    const adapter = createMysqlAdapter({ url, tablePrefix: 'kit_' });
    await adapter.migrate();
    await adapter.migrate();
    const user = await adapter.createUser({ email: 'my@example.com', emailVerified: new Date(1_700_000_000_123) });
    expect(await adapter.getUserByEmail('MY@example.com')).toStrictEqual(user);
    await adapter.close?.();
    const { rows } = await sql<{ name: string; engine: string; collation: string }>`
      select table_name as name, engine, table_collation as collation from information_schema.tables
      where table_schema = ${database} and table_name not like 'kit\\_migrations%' order by table_name`.execute(db);
    expect(rows).toStrictEqual(
      ['kit_accounts', 'kit_authenticators', 'kit_sessions', 'kit_users', 'kit_verification_tokens'].map((name) => ({
        name,
        engine: 'InnoDB',
        collation: 'utf8mb4_nopad_bin',
      })),
    );
  });

  it('with a config object', async () => {
    const { database } = await my.isolated();
    const adapter = createMysqlAdapter({ config: { host: '127.0.0.1', user: 'root', database } });
    await adapter.migrate();
    expect((await adapter.createUser({ name: 'Config' })).name).toBe('Config');
    await adapter.close?.();
  });

  it('compares ids, identifiers and token hashes exactly: case and trailing spaces (binary NO PAD collation)', async () => {
    const { pool } = await my.isolated();
    const adapter = createMysqlAdapter({ pool });
    await adapter.migrate();
    const user = await adapter.createUser({ id: 'User-A', email: 'a@example.com' });
    expect(await adapter.getUser('user-a')).toBeNull();
    expect(await adapter.createUser({ id: 'user-a' })).toMatchObject({ id: 'user-a' });
    expect(await adapter.getUser('User-A')).toStrictEqual(user);
    const expires = new Date(Date.now() + 60_000);
    await adapter.createVerificationToken({ identifier: 'Id', tokenHash: 'AbC', expires });
    for (const [identifier, tokenHash] of [
      ['Id', 'abc'],
      ['Id', 'ABC'],
      ['id', 'AbC'],
      ['Id', 'AbC '],
    ] as const)
      expect(await adapter.useVerificationToken({ identifier, tokenHash })).toBeNull();
    expect(await adapter.useVerificationToken({ identifier: 'Id', tokenHash: 'AbC' })).toMatchObject({
      tokenHash: 'AbC',
    });
  });

  it('searches names and emails by prefix through indexes (EXPLAIN names them)', async () => {
    const { pool, db } = await my.isolated();
    const adapter = createMysqlAdapter({ pool });
    await adapter.migrate();
    await adapter.createUser({ email: 'ada@example.com', name: 'Ada Lovelace' });
    await adapter.createUser({ email: 'bob@example.com', name: 'Grace Hopper' });
    await adapter.createUser({ email: 'x%y@example.com', name: 'Per%cent' });
    const names = async (search: string) =>
      (await adapter.listUsers!({ search })).users
        .map((u) => u.name)
        .sort((a, b) => String(a).localeCompare(String(b)));
    expect(await names('ada')).toStrictEqual(['Ada Lovelace']);
    expect(await names('grace')).toStrictEqual(['Grace Hopper']);
    expect(await names('hopper')).toStrictEqual([]);
    expect(await names('%')).toStrictEqual([]);
    expect(await names('per%')).toStrictEqual(['Per%cent']);
    expect(await names('x%y@')).toStrictEqual(['Per%cent']);
    const plan = await sql<{ key: string | null }>`
      explain select id from auth_users where email_normalized like 'ad%' or name_lower like 'ad%'`.execute(db);
    const keys = plan.rows.map((row) => String(row.key));
    expect(keys.join(' ')).toMatch(/auth_users_name_lower_idx/);
    expect(keys.join(' ')).toMatch(/auth_users_email_normalized_key/);
  });

  it('runs the SQL of generateMigrationSql, after which migrate() finds nothing to do', async () => {
    const { pool, db, database } = await my.isolated();
    const script = await generateMigrationSql({ dialect: 'mysql' });
    for (const statement of script.split(/;\n/).map((s) => s.replace(/^--.*$/gm, '').trim()))
      if (statement) await sql.raw(statement).execute(db);
    const adapter = createMysqlAdapter({ pool });
    await adapter.migrate();
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from information_schema.tables where table_schema = ${database}`.execute(db);
    expect(Number(rows[0]!.n)).toBe(7);
    expect((await adapter.createUser({ email: 'gen@example.com' })).email).toBe('gen@example.com');
  });

  it('an unreachable server, a missing database or refused credentials reject with STORAGE_UNAVAILABLE naming the target, never the password', async () => {
    const cases: [Parameters<typeof createMysqlAdapter>[0], RegExp][] = [
      [
        { url: 'mysql://root:hunter2-secret@127.0.0.1:1/app' },
        /MySQL at 127\.0\.0\.1:1 refused the connection \(database "app", user "root"\)/,
      ],
      [
        { config: { host: '127.0.0.1', user: 'root', database: 'no_such_db_here' } },
        /has no such database \(database "no_such_db_here"/,
      ],
      [
        { config: { host: '127.0.0.1', user: 'nobody_here', password: 'hunter2-secret', database: 'test' } },
        /refused the credentials \(database "test", user "nobody_here"\)/,
      ],
    ];
    for (const [options, message] of cases) {
      const adapter = createMysqlAdapter(options);
      const error = (await adapter.getUser('x').catch((caught: unknown) => caught)) as Error & { code?: string };
      expect(error.code).toBe('STORAGE_UNAVAILABLE');
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain('hunter2');
      await adapter.close?.();
    }
  });

  it('migrates from several processes at once (two pools): every migration runs once', async () => {
    const { url, db } = await my.isolated();
    const adapters = [createMysqlAdapter({ url }), createMysqlAdapter({ url }), createMysqlAdapter({ url })];
    await Promise.all(adapters.map((adapter) => adapter.migrate()));
    const { rows } = await sql<{ n: number }>`select count(*) as n from auth_migrations`.execute(db);
    expect(Number(rows[0]!.n)).toBe(6);
    expect((await adapters[1]!.createUser({ email: 'race@example.com' })).email).toBe('race@example.com');
    await Promise.all(adapters.map((adapter) => adapter.close?.()));
  });

  it('rejects zero or several of url, pool and config', () => {
    expect(() => createMysqlAdapter({})).toThrow(TypeError);
    expect(() => createMysqlAdapter({ url: 'mysql://x', config: {} })).toThrow(TypeError);
  });
});
