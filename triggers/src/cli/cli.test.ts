import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadTriggersFromDir } from '../load.js';
import type { TriggerSource } from '../types.js';
import { checkEventShape } from './event-shape.js';
import { UsageError } from './io.js';
import { runCli } from './index.js';

const fixtures = new URL('./__fixtures__/triggers/', import.meta.url).pathname;
const packageRoot = new URL('../../', import.meta.url).pathname;

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    cwd: packageRoot,
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}

describe('loadTriggersFromDir', () => {
  it('names triggers after their files and skips helpers', async () => {
    const triggers = await loadTriggersFromDir(fixtures);
    expect(Object.keys(triggers)).toEqual(['hook', 'mailer', 'nightly']);
    expect(triggers.nightly!.source).toMatchObject({ type: 'scheduled', cron: '0 3 * * *' });
  });

  it('reports a file whose default export is not a trigger, naming the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'triggers-'));
    try {
      await writeFile(join(dir, 'oops.ts'), 'export default { source: {} };\n');
      await expect(loadTriggersFromDir(dir)).rejects.toThrow(
        'oops.ts: the default export is not a defineTrigger(...) result',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('framework triggers (in-process)', () => {
  it('list prints a table of name, source and key detail', async () => {
    const { code, stdout } = await run('triggers', 'list', '--dir', fixtures);
    expect(code).toBe(0);
    expect(stdout.split('\n')).toEqual([
      'NAME     SOURCE     DETAIL',
      'hook     webhook    POST /hooks/demo (verified)',
      'mailer   queue      queue mail (batch 5)',
      'nightly  scheduled  0 3 * * * (Europe/Berlin)',
      '',
    ]);
  });

  it('info prints the source and the config with defaults applied', async () => {
    const { code, stdout } = await run('triggers', 'info', 'mailer', `--dir=${fixtures}`);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      name: 'mailer',
      source: { type: 'queue', name: 'mail', batchSize: 5, batchTimeout: '5s' },
      config: { retries: 1, retryDelay: '1m', timeout: '30s', observability: { metrics: true, tracing: true } },
    });
    expect(JSON.parse((await run('triggers', 'info', 'hook', '--dir', fixtures)).stdout).source.verifier).toMatch(
      /^\[function/,
    );
  });

  it('test runs a queue handler and prints message outcomes', async () => {
    const event = JSON.stringify({
      messages: [
        { id: 'a', body: { to: 'x@example.com' } },
        { id: 'b', body: {} },
      ],
    });
    const { code, stdout } = await run('triggers', 'test', 'mailer', '--event', event, '--dir', fixtures);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ok {2}mailer \(queue\) in \d+ ms\ntrace [0-9a-f]{32}\n/);
    expect(stdout).toContain('messages:\n  a  ack (implicit)\n  b  deadLetter\n');
    expect(stdout).toContain('emits: none');
  });

  it('test records emits with a real context and passes --env', async () => {
    const { code, stdout } = await run(
      'triggers',
      'test',
      'nightly',
      '--event',
      '{"scheduledTime":"2025-01-01T02:00:00Z"}',
      '--dir',
      fixtures,
    );
    expect(code).toBe(0);
    expect(stdout).toContain('emits:\n  mailer  {"report":"2025-01-01T02:00:00.000Z"}');
    const paused = await run(
      'triggers',
      'test',
      'mailer',
      '--event',
      '{"messages":[{"id":"m","body":{"to":"a@b.c"}}]}',
      '--env',
      '{"paused":true}',
      '--dir',
      fixtures,
    );
    expect(paused.stdout).toContain('  m  retry');
  });

  it('test exits 1 and prints the error when the handler fails', async () => {
    const { code, stdout } = await run(
      'triggers',
      'test',
      'hook',
      '--event',
      '{"payload":{"fail":true}}',
      '--dir',
      fixtures,
    );
    expect(code).toBe(1);
    expect(stdout).toMatch(/^FAILED {2}hook \(webhook\) in \d+ ms: payload asked to fail/);
    expect(stdout).toContain('error  attempt 1 failed: payload asked to fail');
  });

  it.each([
    [['triggers', 'info', 'missing'], 'framework: unknown trigger "missing" (known: hook, mailer, nightly)\n'],
    [['triggers', 'test', 'mailer', '--event', '{bad'], /^framework: --event is not valid JSON: .*\n$/],
    [['triggers', 'test', 'mailer', '--event', '[1]'], 'framework: --event must be a JSON object\n'],
    [['triggers', 'frobnicate'], /^framework: unknown triggers command "frobnicate"/],
    [['deploy'], /^framework: unknown command "deploy"/],
    [['triggers', 'list', '--verbose'], 'framework: unknown option --verbose\n'],
  ])('%j is a one-line usage error with exit code 2', async (argv, expected) => {
    const { code, stderr } = await run(...argv, '--dir', fixtures);
    expect(code).toBe(2);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    if (typeof expected === 'string') expect(stderr).toBe(expected);
    else expect(stderr).toMatch(expected);
  });

  it('exits 2 with one line naming the directory when it does not exist', async () => {
    const { code, stderr } = await run('triggers', 'list', '--dir', '/nonexistent/triggers');
    expect(code).toBe(2);
    expect(stderr).toBe('framework: no trigger directory at /nonexistent/triggers (pass --dir <path>)\n');
  });

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
      const config = new URL('./__fixtures__/auth/auth.ts', import.meta.url).pathname;
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
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
    expect(await run('--version')).toEqual({ code: 0, stdout: `@framework/trigger ${version}\n`, stderr: '' });
  });

  it('test --env takes a module whose default export builds the env; a bad module is a usage error', async () => {
    const event = '{"messages":[{"id":"m","body":{"to":"a@b.c"}}]}';
    const envModule = new URL('./__fixtures__/env/paused-env.ts', import.meta.url).pathname;
    const paused = await run('triggers', 'test', 'mailer', '--event', event, '--env', envModule, '--dir', fixtures);
    expect(paused.code).toBe(0);
    expect(paused.stdout).toContain('  m  retry');
    const missing = await run('triggers', 'test', 'mailer', '--event', event, '--env', './nope.ts', '--dir', fixtures);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining('--env module not found') });
    const bad = new URL('./__fixtures__/env/not-an-object.ts', import.meta.url).pathname;
    const notObject = await run('triggers', 'test', 'mailer', '--event', event, '--env', bad, '--dir', fixtures);
    expect(notObject).toMatchObject({ code: 2, stderr: expect.stringContaining('must export') });
  });

  it('generate-types writes TriggerRegistry entries for every trigger', async () => {
    const dir = await mkdtemp(join(packageRoot, '.tmp-types-'));
    try {
      const out = join(dir, 'types', 'registry.d.ts');
      const { code, stdout } = await run('triggers', 'generate-types', '--dir', fixtures, '--out', out);
      expect(code).toBe(0);
      expect(stdout).toBe(`wrote ${out} (3 triggers)\n`);
      const text = await readFile(out, 'utf8');
      expect(text).toContain("declare module '@framework/trigger' {\n  interface TriggerRegistry {");
      expect(text).toContain(
        '"mailer": EmitPayloadOf<typeof import("../../src/cli/__fixtures__/triggers/mailer.js").default>;',
      );
      expect(text.match(/EmitPayloadOf<typeof import/g)).toHaveLength(3);

      // The declarations make TypeScript check ctx.emit names and payloads.
      await writeFile(
        join(dir, 'types', 'use.ts'),
        [
          "import type { TriggerContext } from '@framework/trigger';",
          'declare const ctx: TriggerContext;',
          "void ctx.emit('mailer', { any: 'body' });",
          "void ctx.emit('nightly', { cron: '0 0 * * *', scheduledTime: new Date() });",
          '// @ts-expect-error unknown trigger name',
          "void ctx.emit('nope', {});",
          '// @ts-expect-error a scheduled event needs a Date',
          "void ctx.emit('nightly', { cron: '0 0 * * *', scheduledTime: 'today' });",
        ].join('\n'),
      );
      await writeFile(
        join(dir, 'types', 'tsconfig.json'),
        JSON.stringify({
          extends: '../../../tsconfig.base.json',
          compilerOptions: { noEmit: true },
          include: ['*.ts'],
        }),
      );
      const tsc = new URL('../../../node_modules/.bin/tsc', import.meta.url).pathname;
      const result = await promisify(execFile)(tsc, ['-p', join(dir, 'types', 'tsconfig.json')]).catch(
        (e: { stdout: string }) => e,
      );
      expect(result.stdout).toBe('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 90_000); // jiti compiles the fixtures and the type check runs tsc: slow on a loaded 2-core machine
});

describe('framework help and version', () => {
  it.each([[[]], [['help']], [['-h']], [['--help']], [['triggers', '--help']]])(
    '%j prints the usage and exits 0',
    async (argv) => {
      const { code, stdout, stderr } = await run(...argv);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toMatch(/^Usage: framework triggers/);
      expect(stdout).toContain('framework help | -h | --help');
    },
  );

  it.each([[['-v']], [['--version']], [['auth', '-v']]])('%j prints the version and exits 0', async (argv) => {
    const { version } = JSON.parse(await readFile(join(packageRoot, 'package.json'), 'utf8')) as { version: string };
    expect(await run(...argv)).toEqual({ code: 0, stdout: `@framework/trigger ${version}\n`, stderr: '' });
  });

  it.each([['-x'], ['-V'], ['-help']])('an unknown one-letter option %s is a usage error', async (flag) => {
    expect(await run('triggers', 'list', flag, '--dir', fixtures)).toEqual({
      code: 2,
      stdout: '',
      stderr: `framework: unknown option ${flag} (-h for help)\n`,
    });
  });
});

describe('framework triggers test --event fits the source', () => {
  it.each([
    ['mailer', '{}', 'queue): --event: missing "messages"'],
    ['mailer', '{"body":{"to":"a@b.c"}}', 'queue): --event.body: unknown field'],
    ['mailer', '{"payload":{"to":"a@b.c"}}', 'queue): --event.payload: unknown field'],
    ['mailer', '{"messages":[]}', 'queue): --event.messages: expected a non-empty array of objects'],
    ['mailer', '{"messages":{"body":{}}}', 'queue): --event.messages: expected a non-empty array of objects'],
    ['mailer', '{"messages":[{"id":"a"}]}', 'queue): --event.messages[0]: missing "body"'],
    ['mailer', '{"messages":["hi"]}', 'queue): --event.messages[0]: expected an object'],
    ['mailer', '{"messages":[{"body":1,"timestamp":"soon"}]}', '--event.messages[0].timestamp: expected an ISO'],
    ['hook', '{}', 'webhook): --event: missing "payload" (JSON) or "body" (a string) for a POST webhook'],
    ['hook', '{"messages":[{"body":{}}]}', 'webhook): --event.messages: unknown field'],
    ['hook', '{"body":{"fail":true}}', 'webhook): --event.body: expected a string'],
    ['nightly', '{"messages":[{"body":{}}]}', 'scheduled): --event.messages: unknown field'],
    ['nightly', '{"scheduledTime":"tomorrow"}', 'scheduled): --event.scheduledTime: expected an ISO'],
  ])('%s with --event %s is refused (exit 2) before the handler runs', async (trigger, event, expected) => {
    const { code, stdout, stderr } = await run('triggers', 'test', trigger, '--event', event, '--dir', fixtures);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(`framework: --event for "${trigger}" (`);
    expect(stderr).toContain(expected);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('a queue trigger without --event is refused too; a scheduled one runs on defaults', async () => {
    const queue = await run('triggers', 'test', 'mailer', '--dir', fixtures);
    expect(queue).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining('missing "messages"') });
    expect((await run('triggers', 'test', 'nightly', '--dir', fixtures)).code).toBe(0);
  });

  it.each([
    [{ type: 'objectstore', bucket: 'b', events: ['object:create'] }, {}, 'missing "object"'],
    [{ type: 'objectstore', bucket: 'b', events: ['object:create'] }, { object: { size: 1 } }, '--event.object.key'],
    [{ type: 'sqldb', database: 'DB' }, { table: 'items' }, 'missing "operation"'],
    [{ type: 'sqldb', database: 'DB' }, { table: 'items', operation: 'UPSERT' }, '--event.operation: expected one'],
    [{ type: 'tail', workers: ['app'] }, { worker: 'app' }, 'missing "logs"'],
    [{ type: 'email' }, { messages: [] }, '--event.messages: unknown field'],
    [{ type: 'webhook', path: '/h', methods: ['PUT'] }, {}, 'for a PUT webhook'],
  ] as Array<[TriggerSource, unknown, string]>)('%j refuses %j', (source, event, expected) => {
    expect(() => checkEventShape('t', source, event)).toThrow(UsageError);
    expect(() => checkEventShape('t', source, event)).toThrow(expected);
  });

  it.each([
    [{ type: 'objectstore', bucket: 'b', events: ['object:create'] }, { object: { key: 'a.txt' } }],
    [
      { type: 'sqldb', database: 'DB' },
      { table: 'items', operation: 'DELETE', oldRow: { id: 1 } },
    ],
    [{ type: 'tail', workers: ['app'] }, { logs: [{ outcome: 'exception', timestamp: '2025-01-01T00:00:00Z' }] }],
    [{ type: 'email' }, undefined],
    [{ type: 'webhook', path: '/h', methods: ['GET'] }, {}],
  ] as Array<[TriggerSource, unknown]>)('%j accepts %j', (source, event) => {
    expect(() => checkEventShape('t', source, event)).not.toThrow();
  });
});

describe('framework auth', () => {
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
      const config = new URL('./__fixtures__/auth/named.ts', import.meta.url).pathname;
      expect(await run('auth', 'migrate', '--config', config)).toEqual({ code: 0, stdout: 'migrated\n', stderr: '' });
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(process.env.FRAMEWORK_CLI_TEST_DB);
      expect(db.prepare('select count(*) as n from auth_migrations').get()).toEqual({ n: 6 });
      db.close();
    } finally {
      delete process.env.FRAMEWORK_CLI_TEST_DB;
      await rm(dir, { recursive: true, force: true });
    }
  });

  // In a child process, as users run it: vitest's own module runner would wrap even a native import().
  it.each(['plain.mjs', 'plain.js'])(
    'migrate --config loads %s with import(), not a transpiler (the fixture refuses one)',
    async (file) => {
      const tsx = new URL('../../../node_modules/.bin/tsx', import.meta.url).pathname;
      const config = `src/cli/__fixtures__/auth/${file}`;
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
    const config = new URL('./__fixtures__/auth/neither.ts', import.meta.url).pathname;
    const { code, stdout, stderr } = await run('auth', 'migrate', '--config', config);
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' });
    expect(stderr).toContain('exports no auth');
    expect(stderr).toContain('export const auth');
    expect(stderr).toContain('export default');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('the framework bin', () => {
  it('runs for real in a child process', async () => {
    const tsx = new URL('../../../node_modules/.bin/tsx', import.meta.url).pathname;
    const { stdout } = await promisify(execFile)(
      tsx,
      ['--conditions=@framework/source', 'bin/framework.mjs', 'triggers', 'list', '--dir', fixtures],
      {
        cwd: packageRoot,
      },
    );
    expect(stdout).toContain('nightly  scheduled  0 3 * * * (Europe/Berlin)');
    const failure = await promisify(execFile)(
      tsx,
      ['--conditions=@framework/source', 'bin/framework.mjs', 'triggers', 'info', 'nope', '--dir', fixtures],
      {
        cwd: packageRoot,
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown trigger "nope"') });
    const bare = await promisify(execFile)(tsx, ['--conditions=@framework/source', 'bin/framework.mjs'], {
      cwd: packageRoot,
    });
    expect(bare.stdout).toMatch(/^Usage: framework/);
  });
});
