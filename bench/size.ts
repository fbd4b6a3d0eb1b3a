/**
 * Bundle size of typical imports from the built packages (run `npm run build` first): each import is bundled
 * with esbuild (ESM, minified, tree-shaken, Node platform) from the published `dist` files, and the gzip size
 * is printed beside its goal. jose and oauth4webapi stay external (an app's own dependencies, shared with
 * everything else it does), as do Node's built-ins.
 *
 * Then the cold import time of `@framework/auth` beside better-auth's and Auth.js's, each in a fresh Node
 * process (median of 5).
 *
 * `npm run size -w @framework/bench`
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const EXTERNAL = ['jose', 'oauth4webapi'];

interface SizeCase {
  label: string;
  code: string;
  /** Goal in KB gzip (1 KB = 1024 bytes), from issue 22. */
  goalKb: number;
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
    goalKb: 40,
  },
  {
    label: "{ hashPassword } from '@framework/auth'",
    code: "export { hashPassword } from '@framework/auth';",
    goalKb: 25,
  },
];

/**
 * The gzip size in bytes of what loading `code` evaluates, bundled as an app would: the entry chunk and the
 * chunks it imports statically. Code behind a dynamic `import()` (passkeys, Upstash, the Wasm argon2) is split
 * into chunks of its own and loaded only when used, so it is not counted.
 */
export async function gzipSizeOf(code: string): Promise<number> {
  const outdir = join(here, '.size-out');
  const result = await build({
    stdin: { contents: code, resolveDir: here, loader: 'js' },
    absWorkingDir: here,
    bundle: true,
    splitting: true,
    outdir,
    write: false,
    metafile: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    logLevel: 'silent',
  });
  const outputs = result.metafile!.outputs;
  const entry = Object.keys(outputs).find((file) => outputs[file]!.entryPoint === '<stdin>')!;
  const eager = new Set<string>();
  const visit = (file: string) => {
    if (eager.has(file)) return;
    eager.add(file);
    for (const i of outputs[file]!.imports) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(entry);
  let bytes = 0;
  for (const file of result.outputFiles!) {
    const relative = file.path.slice(here.length + 1);
    if (eager.has(relative)) bytes += gzipSync(file.contents, { level: 9 }).length;
  }
  return bytes;
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

const rows: string[] = [];
let over = 0;
for (const c of CASES) {
  const kb = (await gzipSizeOf(c.code)) / 1024;
  if (kb > c.goalKb) over++;
  rows.push(`| ${c.label} | ${kb.toFixed(1)} KB | ≤ ${c.goalKb} KB | ${kb <= c.goalKb ? 'met' : 'OVER'} |`);
}
console.log('\nBundle size (esbuild, minified, gzip; jose and oauth4webapi external)\n');
console.log('| import | gzip | goal | |\n|---|---|---|---|');
console.log(rows.join('\n'));

console.log('\nCold import (fresh Node process, median of 5)\n');
console.log('| package | ms |\n|---|---|');
for (const specifier of ['@framework/auth', 'better-auth', '@auth/core']) {
  try {
    console.log(`| ${specifier} | ${coldImportMs(specifier).toFixed(1)} |`);
  } catch {
    console.log(`| ${specifier} | not installed |`);
  }
}
if (over) process.exitCode = 1;
