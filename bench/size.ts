/**
 * Bundle size and cold import time, beside better-auth's and Auth.js's in the same run (run `npm run build` first:
 * the kit's figures come from the published `dist` files).
 *
 * Bundle size: each import is bundled as an app would ship it to a serverless runtime: esbuild, one file (no code
 * splitting, so whatever sits behind a dynamic `import()` counts too), ESM, minified, tree-shaken, Node platform;
 * gzip level 9. jose and oauth4webapi stay external (an app's own dependencies, shared with everything else it
 * does), as do Node's built-ins. Goals from issues 22 and 39.
 *
 * Cold import: wall time of `await import(specifier)` in a fresh Node process (median of 5). Goal for
 * `@framework/auth`: 100 ms.
 *
 * Exits 1 when a goal of the kit is missed. `npm run size -w @framework/bench`
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const EXTERNAL = ['jose', 'oauth4webapi'];

interface SizeCase {
  label: string;
  code: string;
  /** Goal in KB gzip (1 KB = 1024 bytes); none for the other libraries, shown for comparison. */
  goalKb?: number;
}

const CASES: SizeCase[] = [
  {
    label: "{ requireAuth } from '@framework/auth'",
    code: "export { requireAuth } from '@framework/auth';",
    goalKb: 15,
  },
  {
    label: "{ createAuth, credentials } from '@framework/auth'",
    code: "export { createAuth, credentials } from '@framework/auth';",
    goalKb: 60,
  },
  {
    label: "{ hashPassword } from '@framework/auth'",
    code: "export { hashPassword } from '@framework/auth';",
    goalKb: 25,
  },
  {
    label: "{ betterAuth } from 'better-auth' (comparison)",
    code: "export { betterAuth } from 'better-auth';",
  },
  {
    label: "{ Auth } + Credentials from '@auth/core' (Auth.js, comparison)",
    code: "export { Auth } from '@auth/core'; export { default as Credentials } from '@auth/core/providers/credentials';",
  },
];

/** Cold import goal of `@framework/auth` in ms (issue 39). */
const COLD_IMPORT_GOAL_MS = 100;

/** The gzip size in bytes of `code` bundled into one file (see the module comment). */
export async function gzipSizeOf(code: string): Promise<number> {
  const result = await build({
    stdin: { contents: code, resolveDir: here, loader: 'js' },
    absWorkingDir: here,
    bundle: true,
    splitting: false,
    write: false,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    logLevel: 'silent',
  });
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length;
}

/** Median wall time in ms of `node -e "await import(specifier)"` in fresh processes. */
function coldImportMs(specifier: string, runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const script = `const t=performance.now();await import(${JSON.stringify(specifier)});console.log(performance.now()-t)`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: here, encoding: 'utf8' });
    times.push(Number(out.trim()));
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const mark = (value: number, goal: number | undefined) => (goal === undefined ? '' : value <= goal ? 'met' : 'MISSED');

let missed = 0;
console.log('\nBundle size (esbuild, one file, minified, gzip; jose and oauth4webapi external)\n');
console.log('| import | gzip | goal | |\n|---|---|---|---|');
for (const c of CASES) {
  try {
    const kb = (await gzipSizeOf(c.code)) / 1024;
    if (c.goalKb !== undefined && kb > c.goalKb) missed++;
    const goal = c.goalKb === undefined ? '' : `≤ ${c.goalKb} KB`;
    console.log(`| ${c.label} | ${kb.toFixed(1)} KB | ${goal} | ${mark(kb, c.goalKb)} |`);
  } catch (error) {
    if (c.goalKb !== undefined) throw error;
    console.log(`| ${c.label} | does not bundle: ${(error as Error).message.split('\n')[0]} | | |`);
  }
}

console.log('\nCold import (fresh Node process, median of 5)\n');
console.log('| package | ms | goal | |\n|---|---|---|---|');
for (const specifier of ['@framework/auth', 'better-auth', '@auth/core']) {
  const goal = specifier === '@framework/auth' ? COLD_IMPORT_GOAL_MS : undefined;
  let ms: number;
  try {
    ms = coldImportMs(specifier);
  } catch {
    console.log(`| ${specifier} | not installed | | |`);
    continue;
  }
  if (goal !== undefined && ms > goal) missed++;
  console.log(`| ${specifier} | ${ms.toFixed(1)} | ${goal === undefined ? '' : `≤ ${goal} ms`} | ${mark(ms, goal)} |`);
}
if (missed) process.exitCode = 1;
