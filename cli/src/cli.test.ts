import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fixtures, packageRoot, run, tsx } from './run.test-helpers.js';

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
    expect(await run(...argv)).toEqual({ code: 0, stdout: `@framework/cli ${version}\n`, stderr: '' });
  });

  it.each([['-x'], ['-V'], ['-help']])('an unknown one-letter option %s is a usage error', async (flag) => {
    expect(await run('triggers', 'list', flag, '--dir', fixtures)).toEqual({
      code: 2,
      stdout: '',
      stderr: `framework: unknown option ${flag} (-h for help)\n`,
    });
  });
});

describe('the framework bin', () => {
  it('runs for real in a child process', async () => {
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
  }, 60_000); // three child processes, each compiling the sources through tsx: slow on a loaded 2-core machine
});
