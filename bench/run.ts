/**
 * `npm run bench`: prints every benchmark from one run. Not a test: the
 * goals are printed beside the numbers.
 */
import { sessionReadMicros } from './session-read.js';
import { protectedVsBare } from './throughput.js';
import { printComparison } from './compare-print.js';

const fmt = (n: number, digits = 1) => n.toFixed(digits);

console.log('== auth.getSession(request), median µs per call');
console.log(`jwt:               ${fmt(await sessionReadMicros('jwt'), 2)} µs`);
console.log(`database (SQLite): ${fmt(await sessionReadMicros('database'), 2)} µs`);

console.log('');
await printComparison();

const t = await protectedVsBare();
console.log(
  `\n== protected route (jwt) vs bare Hono (autocannon, 20 connections, loopback; median of 5 interleaved rounds; ${
    t.pinned ? 'server on core 1, load generator on core 0' : 'not pinned to cores'
  })`,
);
console.log('| route | req/s | % of bare req/s | server CPU µs per request | % of bare capacity (CPU) |');
console.log('|---|---|---|---|---|');
const routes = [
  ['bare Hono', 'bare'],
  ['a no-op middleware (the ceiling of any)', 'noop'],
  ['authSession(auth) + requireAuth(c) (default; goal ≥ 85 %)', 'default'],
  [`authSession(auth, {scope: true}) (ALS, Node ${process.versions.node})`, 'scoped'],
] as const;
for (const [label, kind] of routes) {
  const cpu = t.cpu ? `${fmt(t.cpu[kind], 2)} | ${fmt((t.cpu.bare / t.cpu[kind]) * 100)} %` : 'n/a | n/a';
  console.log(`| ${label} | ${fmt(t.rps[kind], 0)} | ${fmt((t.rps[kind] / t.rps.bare) * 100)} % | ${cpu} |`);
}

const { printFastifyThroughput } = await import('./fastify.js');
await printFastifyThroughput();

try {
  const { benchTriggers } = (await import('./triggers.js')) as { benchTriggers: () => Promise<Record<string, number>> };
  console.log('\n== triggers');
  for (const [name, value] of Object.entries(await benchTriggers())) console.log(`${name}: ${fmt(value, 2)}`);
} catch (e) {
  if ((e as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw e;
}
try {
  const { benchRateLimit } = (await import('./rate-limit.js')) as {
    benchRateLimit: () => Promise<Record<string, number>>;
  };
  console.log('\n== rate limits (check() per second; goal: the Redis bridge within 15 % of raw EVALSHA)');
  for (const [name, value] of Object.entries(await benchRateLimit())) console.log(`${name}: ${fmt(value, 1)}`);
} catch (e) {
  if ((e as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw e;
}
try {
  const { benchBullmq } = (await import('./bullmq.js')) as { benchBullmq: () => Promise<Record<string, number>> };
  console.log(
    '\n== BullMQ engine (messages/s and peak RSS MB, 5 ms I/O per message; goal: engine ≥ 90 % of a raw BullMQ Worker at equal concurrency)',
  );
  for (const [name, value] of Object.entries(await benchBullmq())) console.log(`${name}: ${fmt(value, 1)}`);
} catch (e) {
  if ((e as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw e;
}
try {
  const { benchDashboard } = (await import('./dashboard.js')) as {
    benchDashboard: () => Promise<Record<string, number>>;
  };
  console.log('\n== dashboard run history (one run per message; goal: under 2 % overhead when nobody looks)');
  for (const [name, value] of Object.entries(await benchDashboard())) console.log(`${name}: ${fmt(value, 2)}`);
} catch (e) {
  if ((e as { code?: string }).code !== 'ERR_MODULE_NOT_FOUND') throw e;
}
const { benchSessionRead } = await import('../runtime-tests/bench-session.js');
console.log('\n== auth.getSession(request) µs by runtime (Node 20 here, Node 24 spawned)');
for (const [name, value] of Object.entries(await benchSessionRead())) console.log(`${name}: ${fmt(value, 2)}`);
process.exit(0);
