import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fixtures, packageRoot, run } from '../run.test-helpers.js';

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

  it('one file that does not load is listed as ERROR (exit 1) and hides no other trigger', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'framework-triggers-'));
    try {
      await cp(fixtures, dir, { recursive: true });
      await writeFile(join(dir, 'broken.ts'), "import './nowhere.js';\n");
      await writeFile(join(dir, 'plain.ts'), 'export default { source: {} };\n');
      const { code, stdout, stderr } = await run('triggers', 'list', '--dir', dir);
      expect(code).toBe(1);
      expect(stdout.split('\n')).toEqual([
        expect.stringMatching(/^NAME +SOURCE +DETAIL$/),
        expect.stringMatching(/^broken +ERROR +broken\.ts: could not load: .*nowhere/),
        expect.stringMatching(/^hook +webhook +POST \/hooks\/demo \(verified\)$/),
        expect.stringMatching(/^mailer +queue +queue mail \(batch 5\)$/),
        expect.stringMatching(/^nightly +scheduled +0 3 \* \* \* \(Europe\/Berlin\)$/),
        expect.stringMatching(/^plain +ERROR +plain\.ts: the default export is not a defineTrigger\(\.\.\.\) result$/),
        '',
      ]);
      expect(stderr).toBe('framework: 2 trigger files did not load (listed as ERROR)\n');

      // The other commands still work on the triggers that load; the broken one answers its own error (exit 1).
      expect((await run('triggers', 'info', 'mailer', '--dir', dir)).code).toBe(0);
      expect(await run('triggers', 'info', 'plain', '--dir', dir)).toEqual({
        code: 1,
        stdout: '',
        stderr: 'framework: plain.ts: the default export is not a defineTrigger(...) result\n',
      });
      expect(await run('triggers', 'generate-types', '--dir', dir)).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('framework: broken.ts: could not load'),
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('exits 2 with one line naming the directory when it does not exist', async () => {
    const { code, stderr } = await run('triggers', 'list', '--dir', '/nonexistent/triggers');
    expect(code).toBe(2);
    expect(stderr).toBe('framework: no trigger directory at /nonexistent/triggers (pass --dir <path>)\n');
  });

  it('test --env takes a module whose default export builds the env; a bad module is a usage error', async () => {
    const event = '{"messages":[{"id":"m","body":{"to":"a@b.c"}}]}';
    const envModule = new URL('../__fixtures__/env/paused-env.ts', import.meta.url).pathname;
    const paused = await run('triggers', 'test', 'mailer', '--event', event, '--env', envModule, '--dir', fixtures);
    expect(paused.code).toBe(0);
    expect(paused.stdout).toContain('  m  retry');
    const missing = await run('triggers', 'test', 'mailer', '--event', event, '--env', './nope.ts', '--dir', fixtures);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining('--env module not found') });
    const bad = new URL('../__fixtures__/env/not-an-object.ts', import.meta.url).pathname;
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
        '"mailer": EmitPayloadOf<typeof import("../../src/__fixtures__/triggers/mailer.js").default>;',
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
});
