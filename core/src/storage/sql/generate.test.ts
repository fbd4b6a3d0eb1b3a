/**
 * `generateMigrationSql` against real databases: the SQL applied by hand gives the schema `migrate()` would, and a
 * later `migrate()` finds every migration applied.
 */
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresSchemas } from '../../../../test-support/pg-schemas.js';
import { dialects } from './dialect.js';
import { generateMigrationSql } from './generate.js';
import { migrations } from './migrations.js';
import { createSqliteAdapter } from './sqlite.js';
import { createSqlStore } from './store.js';
import { tableNames } from './tables.js';
import { sql } from 'kysely';

const pgSchemas = await postgresSchemas('generate_sql_test');
/** Every migration of the core schema is recorded as applied. */
const MIGRATIONS = Object.keys(migrations(tableNames(), dialects.sqlite)).length;

describe('generateMigrationSql', () => {
  afterAll(() => pgSchemas.dropAll());

  it('SQLite: the SQL builds the schema, and migrate() afterwards changes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'generate-sql-'));
    try {
      const file = join(dir, 'app.db');
      const text = await generateMigrationSql({ dialect: 'sqlite' });
      expect(text).toContain('-- 0004_session_impersonation');
      const raw = new Database(file);
      raw.exec(text);
      const tables = (
        raw.prepare("select name from sqlite_master where type = 'table' order by name").all() as {
          name: string;
        }[]
      ).map((r) => r.name);
      raw.close();
      expect(tables).toEqual(
        expect.arrayContaining([
          'auth_users',
          'auth_sessions',
          'auth_accounts',
          'auth_migrations',
          'auth_migrations_lock',
        ]),
      );
      const adapter = createSqliteAdapter({ filename: file });
      await adapter.migrate();
      const user = await adapter.createUser({ email: 'generated@example.com', role: 'admin' });
      expect(await adapter.bumpSessionVersion(user.id)).toBe(1);
      await adapter.close?.();
      const check = new Database(file);
      expect(check.prepare('select count(*) as n from auth_migrations').get()).toEqual({ n: MIGRATIONS });
      check.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!pgSchemas.available)(
    'PostgreSQL: the SQL builds the schema, and migrate() afterwards changes nothing',
    async () => {
      const db = await pgSchemas.isolated();
      try {
        const text = await generateMigrationSql({ dialect: 'postgres', tablePrefix: 'app_' });
        for (const statement of text
          .split(/;\s*\n/)
          .map((s) => s.replace(/^--.*$/gm, '').trim())
          .filter(Boolean))
          await sql.raw(statement).execute(db);
        const adapter = createSqlStore({
          dialect: 'postgres',
          tablePrefix: 'app_',
          open: async () => ({ db, close: async () => {} }),
        });
        await adapter.migrate();
        const user = await adapter.createUser({ email: 'generated@example.com' });
        expect((await adapter.getUser(user.id))?.email).toBe('generated@example.com');
        const { rows } = await sql<{ n: string }>`select count(*) as n from app_migrations`.execute(db);
        expect(Number(rows[0]!.n)).toBe(MIGRATIONS);
      } finally {
        await db.destroy();
      }
    },
  );

  it('refuses an unknown dialect and a malformed prefix', async () => {
    await expect(generateMigrationSql({ dialect: 'oracle' as never })).rejects.toThrow(/Unknown SQL dialect/);
    await expect(generateMigrationSql({ dialect: 'sqlite', tablePrefix: 'x; drop' })).rejects.toThrow(TypeError);
  });
});
