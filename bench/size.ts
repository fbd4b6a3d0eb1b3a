/**
 * Bundle size and cold import time, beside better-auth's and Auth.js's in the same run (run `npm run build` first:
 * the kit's figures come from the published `dist` files).
 *
 * Bundle size: each import is bundled as an app would ship it to a serverless runtime: esbuild, one file (no code
 * splitting, so whatever sits behind a dynamic `import()` counts too), ESM, minified, tree-shaken, Node platform;
 * gzip level 9. jose and oauth4webapi stay external (an app's own dependencies, shared with everything else it
 * does), as do Node's built-ins. Goals from issues 22 and 39.
 *
 * Cold import: wall and CPU time of `await import(specifier)` in a fresh Node process (median of 5). Goal for
 * `@framework/auth`: 100 ms (the wall time decides the exit code; on a loaded machine read the CPU time, which the
 * other processes hardly change). Beside it, from one more process, what the import loads: its modules (file: URLs), and
 * how many of them are Kysely's (goal 0: Kysely loads when an SQL adapter is created), and below the table the kit's
 * modules by package (what a cold import still loads: its own `dist` files and the dependencies it imports eagerly);
 * these counts do not depend on the machine's load.
 *
 * Exits 1 when a goal of the kit is missed. `npm run size -w @framework/bench`
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { loadavg } from 'node:os';
import { dirname, relative } from 'node:path';
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Median wall time and median CPU time (user + system, every thread of the process) in ms of
 * `node -e "await import(specifier)"` in fresh processes. On a loaded machine the wall time waits for the other
 * processes; the CPU time much less so.
 */
function coldImportMs(specifier: string, runs = 5): { wall: number; cpu: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const script = [
      `const c=process.cpuUsage();const t=performance.now();await import(${JSON.stringify(specifier)});`,
      `const u=process.cpuUsage(c);console.log(performance.now()-t,(u.user+u.system)/1000)`,
    ].join('');
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: here, encoding: 'utf8' });
    const [w, c] = out.trim().split(' ').map(Number);
    wall.push(w!);
    cpu.push(c!);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

/**
 * The modules (`file:` URLs) a fresh Node process loads for `await import(specifier)`: ES modules through a load
 * hook, CommonJS ones from the require cache (a `require` inside a CommonJS module does not pass the hook).
 */
function modulesLoadedBy(specifier: string): string[] {
  const hooks = `let port;export function initialize(d){port=d.port}export async function load(u,c,n){port.postMessage(u);return n(u,c)}`;
  const script = [
    `import{createRequire,register}from'node:module';import{MessageChannel}from'node:worker_threads';`,
    `import{pathToFileURL}from'node:url';`,
    `const{port1,port2}=new MessageChannel();const urls=new Set();const END='data:text/javascript,export{}';`,
    `const ended=new Promise(r=>port1.on('message',u=>u===END?r():urls.add(u)));`,
    `register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)},{data:{port:port2},transferList:[port2]});`,
    `await import(${JSON.stringify(specifier)});await import(END);await ended;port1.close();`,
    `for(const p of Object.keys(createRequire(import.meta.url).cache))urls.add(pathToFileURL(p).href);`,
    `console.log(JSON.stringify([...urls].filter(u=>u.startsWith('file:'))));`,
  ].join('');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: here, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!) as string[];
}

/** `file:` URLs grouped by package (`node_modules/<name>`, else the workspace folder, e.g. `core`), most modules first. */
function modulesByPackage(urls: string[]): string {
  const counts = new Map<string, number>();
  for (const url of urls) {
    const path = fileURLToPath(url);
    const name =
      /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? relative(dirname(here), path).split('/dist/')[0]!;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
}

const mark = (value: number, goal: number | undefined) => (goal === undefined ? '' : value <= goal ? 'met' : 'MISSED');

let missed = 0;
let kitModules: string[] = [];
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

console.log(`\nCold import (fresh Node process, median of 5; load average ${loadavg()[0]!.toFixed(1)})\n`);
console.log('| package | ms (wall) | ms (CPU) | goal | | modules loaded | of them Kysely (goal 0 for the kit) |');
console.log('|---|---|---|---|---|---|---|');
for (const specifier of ['@framework/auth', 'better-auth', '@auth/core']) {
  const goal = specifier === '@framework/auth' ? COLD_IMPORT_GOAL_MS : undefined;
  let ms: { wall: number; cpu: number };
  let modules: string[];
  try {
    ms = coldImportMs(specifier);
    modules = modulesLoadedBy(specifier);
  } catch {
    console.log(`| ${specifier} | not installed | | | | | |`);
    continue;
  }
  const kysely = modules.filter((url) => url.includes('/node_modules/kysely/')).length;
  if (goal !== undefined) kitModules = modules;
  if (goal !== undefined && ms.wall > goal) missed++;
  if (goal !== undefined && kysely > 0) missed++;
  const goalCell = goal === undefined ? '' : `≤ ${goal} ms`;
  const marks = goal === undefined ? '' : `wall ${mark(ms.wall, goal)}, CPU ${mark(ms.cpu, goal)}`;
  const kyselyCell = goal === undefined ? String(kysely) : `${kysely} ${kysely === 0 ? 'met' : 'MISSED'}`;
  const cells = [ms.wall.toFixed(1), ms.cpu.toFixed(1), goalCell, marks, modules.length, kyselyCell];
  console.log(`| ${specifier} | ${cells.join(' | ')} |`);
}
if (kitModules.length > 0)
  console.log(`\nModules of @framework/auth's cold import, by package: ${modulesByPackage(kitModules)}`);
if (missed) process.exitCode = 1;
