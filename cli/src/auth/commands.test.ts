import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { packageRoot, run, tsx } from '../run.test-helpers.js';

describe('framework auth', () => {
  it("auth generate prints the storage SQL (or writes --out); auth migrate runs the config module's migrations", async () => {
    const printed = await run('auth', 'generate', '--dialect', 'sqlite', '--prefix', 'app_');
    expect(printed.code).toBe(0);
    expect(printed.stdout).toContain('create table "app_users"');
    expect(await run('auth', 'generate', '--dialect', 'oracle')).toMatchObject({ code: 2 });
    const dir = await mkdtemp(join(tmpdir(), 'framework-auth-cli-'));
    try {
      const out = join(dir, 'sql', 'auth.sql');
      expect(await run('auth', 'generate', '--dialect', 'postgres', '--out', out)).toMatchObject({ code: 0 });
      expect(await readFile(out, 'utf8')).toContain('create table "auth_sessions"');
      process.env.FRAMEWORK_CLI_TEST_DB = join(dir, 'app.db');
      const config = new URL('../__fixtures__/auth/auth.ts', import.meta.url).pathname;
      expect(await run('auth', 'migrate', '--config', config)).toEqual({ code: 0, stdout: 'migrated\n', stderr: '' });
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(process.env.FRAMEWORK_CLI_TEST_DB);
      expect(db.prepare('select count(*) as n from auth_migrations').get()).toEqual({ n: 6 });
      db.close();
      expect(await run('auth', 'migrate')).toMatchObject({ code: 2, stderr: expect.stringContaining('--config') });
    } finally {
      delete process.env.FRAMEWORK_CLI_TEST_DB;
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000); // the first auth import compiles the sources: slow on a loaded 2-core machine

  it("generate --config adds the columns of the auth's user.additionalFields; --drizzle prints the Drizzle schema", async () => {
    const config = new URL('../__fixtures__/auth/fields.ts', import.meta.url).pathname;
    const sql = await run('auth', 'generate', '--dialect', 'postgres', '--plugins', 'none', '--config', config);
    expect(sql.code).toBe(0);
    expect(sql.stdout).toContain(`alter table "auth_users" add column "plan_tier" text default 'free'`);
    expect(sql.stdout).toContain('create unique index "auth_users_handle_key" on "auth_users" ("handle")');
    expect((await run('auth', 'generate', '--dialect', 'postgres')).stdout).not.toContain('plan_tier');
    const drizzle = await run('auth', 'generate', '--drizzle', '--dialect', 'sqlite', '--config', config);
    expect(drizzle.code).toBe(0);
    expect(drizzle.stdout).toContain("export const authUsers = sqliteTable(\n  'auth_users',");
    expect(drizzle.stdout).toContain("planTier: text('plan_tier').default('free'),");
    expect(drizzle.stdout).not.toContain('plugin');
    const plain = await run('auth', 'generate', '--drizzle', '--dialect', 'postgres', '--prefix', 'app_');
    expect(plain.stdout).toContain("pgTable(\n  'app_sessions',");
    expect(await run('auth', 'generate', '--drizzle', '--dialect', 'mysql')).toMatchObject({
      code: 2,
      stderr: 'framework: --dialect must be sqlite, postgres with --drizzle\n',
    });
  }, 60_000);

  it('generate --dialect mysql prints the MySQL schema', async () => {
    const { code, stdout } = await run('auth', 'generate', '--dialect', 'mysql');
    expect(code).toBe(0);
    expect(stdout).toContain('-- @framework/auth storage schema (mysql, tables auth_*)');
    expect(stdout).toContain('create table `auth_users`');
    expect(await run('auth', 'generate', '--dialect', 'mssql')).toMatchObject({
      code: 2,
      stderr: 'framework: --dialect must be sqlite, postgres, mysql\n',
    });
  });

  it('migrate --config takes a named `auth` export (the core README shape)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'framework-auth-named-'));
    try {
      process.env.FRAMEWORK_CLI_TEST_DB = join(dir, 'app.db');
      const config = new URL('../__fixtures__/auth/named.ts', import.meta.url).pathname;
      expect(await run('auth', 'migrate', '--config', config)).toEqual({ code: 0, stdout: 'migrated\n', stderr: '' });
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(process.env.FRAMEWORK_CLI_TEST_DB);
      expect(db.prepare('select count(*) as n from auth_migrations').get()).toEqual({ n: 6 });
      db.close();
    } finally {
      delete process.env.FRAMEWORK_CLI_TEST_DB;
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  // In a child process, as users run it: vitest's own module runner would wrap even a native import().
  it.each(['plain.mjs', 'plain.js'])(
    'migrate --config loads %s with import(), not a transpiler (the fixture refuses one)',
    async (file) => {
      const config = `src/__fixtures__/auth/${file}`;
      const result = await promisify(execFile)(
        tsx,
        ['--conditions=@framework/source', 'bin/framework.mjs', 'auth', 'migrate', '--config', config],
        { cwd: packageRoot },
      ).catch((error: { code: number; stdout: string; stderr: string }) => error);
      expect(result).toMatchObject({ stdout: 'migrated\n', stderr: '' });
    },
    30_000,
  );

  it('migrate --config exits 1 naming both accepted exports when the module has neither', async () => {
    const config = new URL('../__fixtures__/auth/neither.ts', import.meta.url).pathname;
    const { code, stdout, stderr } = await run('auth', 'migrate', '--config', config);
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toContain('exports no auth');
    expect(stderr).toContain('export const auth');
    expect(stderr).toContain('export default');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
