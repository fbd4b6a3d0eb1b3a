import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from './io.js';
import { importPeer } from './peer.js';

// A folder outside the repo: no node_modules above it holds @framework/trigger, so Node's own resolution fails.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'framework-cli-peer-'));
  await writeFile(join(dir, 'needs-trigger.mjs'), "export * from '@framework/trigger/cli';\n");
  await writeFile(join(dir, 'throws.mjs'), "throw new Error('inside the module');\n");
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('importPeer', () => {
  it('turns a missing package (ESM import of a module that imports it) into a usage error naming npm install', async () => {
    const error = await importPeer(
      '@framework/trigger',
      () => import(pathToFileURL(join(dir, 'needs-trigger.mjs')).href),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(
      '`framework triggers` needs @framework/trigger, which is not installed: npm install @framework/trigger',
    );
  });

  it('does the same for a CommonJS require of a subpath', async () => {
    const require = createRequire(join(dir, 'x.cjs'));
    const error = await importPeer('@framework/trigger', async () => require('@framework/trigger/cli')).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toContain('npm install @framework/trigger');
  });

  it('passes on any other error, and the module when it loads', async () => {
    const inside = await importPeer('jiti', () => import(pathToFileURL(join(dir, 'throws.mjs')).href)).catch(
      (e: unknown) => e,
    );
    expect(inside).not.toBeInstanceOf(UsageError);
    expect((inside as Error).message).toBe('inside the module');
    const other = await importPeer(
      '@framework/auth',
      () => import(pathToFileURL(join(dir, 'needs-trigger.mjs')).href),
    ).catch((e: unknown) => e);
    expect(other).not.toBeInstanceOf(UsageError);
    expect(await importPeer('jiti', () => import('jiti'))).toHaveProperty('createJiti');
  });
});
