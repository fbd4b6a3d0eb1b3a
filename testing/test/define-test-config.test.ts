/**
 * defineTestConfig: the returned configs, and a real vitest run of the edge
 * fixture (test/edge/) in a child process: Web-only code passes, code that
 * imports a Node built-in fails with the guard's message.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { defineTestConfig } from '../src/config/define-test-config.js';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('./edge/', import.meta.url));
const vitestBin = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

interface JsonReport {
  testResults: Array<{ name: string; status: string; message: string }>;
}

describe('defineTestConfig', () => {
  it('node: the node environment and no plugins', () => {
    expect(defineTestConfig({ environment: 'node', include: ['src/**/*.test.ts'] })).toEqual({
      test: { environment: 'node', include: ['src/**/*.test.ts'] },
    });
  });

  it('edge: the edge-runtime environment plus the built-in guard', () => {
    const config = defineTestConfig({ environment: 'edge', test: { testTimeout: 1000 } });
    expect(config.test).toEqual({ environment: 'edge-runtime', testTimeout: 1000 });
    expect(config.plugins).toEqual([expect.objectContaining({ name: 'framework-testing:edge-guard' })]);
  });

  it('refuses another environment', () => {
    expect(() => defineTestConfig({ environment: 'jsdom' as never })).toThrow(/'node' or 'edge'/);
  });

  it('edge: Web-only code passes and a node:fs import fails the file', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'edge-run-'));
    const outputFile = join(dir, 'report.json');
    try {
      await run(
        process.execPath,
        [
          vitestBin,
          'run',
          '--config',
          join(fixture, 'vitest.config.ts'),
          '--root',
          fixture,
          '--reporter=json',
          `--outputFile=${outputFile}`,
        ],
        {
          cwd: fixture,
          env: { ...process.env, CI: '' },
        },
      ).catch((error: { code?: number }) => {
        if (error.code !== 1) throw error; // one fixture is meant to fail
      });
      const report = JSON.parse(await readFile(outputFile, 'utf8')) as JsonReport;
      const byFile = Object.fromEntries(report.testResults.map((r) => [r.name.slice(fixture.length), r]));
      expect(byFile['web-only.edge-fixture.ts']?.status).toBe('passed');
      expect(byFile['node-import.edge-fixture.ts']?.status).toBe('failed');
      expect(byFile['node-import.edge-fixture.ts']?.message).toContain(
        '"node:fs" is a Node.js built-in module, which edge runtimes do not provide',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
