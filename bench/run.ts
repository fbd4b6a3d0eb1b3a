/**
 * `npm run bench`: prints every benchmark from one run. Not a test: the
 * goals are printed beside the numbers.
 */
import { sessionReadMicros } from './session-read.js';
import { printAdapterTable } from './adapter-table.js';
import { protectedVsBare } from './throughput.js';
import { goalText, HONO_CPU_OVER_NOOP, POSTGRES_READ_OVER_RAW, SQLITE_OVER_BETTER_AUTH, verdict } from './goals.js';
import { postgresRead } from './postgres-read.js';
import { printComparison } from './compare-print.js';

const fmt = (n: number, digits = 1) => n.toFixed(digits);

console.log('== auth.getSession(request), median µs per call');
console.log(`jwt:               ${fmt(await sessionReadMicros('jwt'), 2)} µs`);
console.log(`database (SQLite): ${fmt(await sessionReadMicros('database'), 2)} µs`);

const pgRead = await postgresRead();
const pgRatio = pgRead.ours / pgRead.raw;
console.log('\n== PostgreSQL session read (database strategy) vs a raw pg prepared select of the same row, median µs');
console.log('| figure | value | goal | |\n|---|---|---|---|');
console.log(`| auth.getSession(request) | ${fmt(pgRead.ours)} µs | | |`);
console.log(`| raw pg named prepared select | ${fmt(pgRead.raw)} µs | | |`);
console.log(
  `| ratio | ${fmt(pgRatio, 2)}× | ${goalText(POSTGRES_READ_OVER_RAW)} | ${verdict(pgRatio, POSTGRES_READ_OVER_RAW)} |`,
);
console.log(`| round trips per read | ${pgRead.roundTrips} | = 1 | ${pgRead.roundTrips === 1 ? 'met' : 'MISSED'} |`);

console.log('');
await printComparison();

const t = await protectedVsBare();
const node20 = process.versions.node.startsWith('20.');
printAdapterTable(
  'protected route vs bare Hono',
  t,
  [
    ['bare Hono', 'bare', undefined],
    ['a no-op middleware (the ceiling of any)', 'noop', undefined],
    ['authSession(auth) + requireAuth(c) (default, jwt)', 'default', HONO_CPU_OVER_NOOP.default],
    [
      'authSession(auth, {scope: true}) (jwt, AsyncLocalStorage)',
      'scoped',
      node20 ? HONO_CPU_OVER_NOOP.scoped : undefined,
    ],
    ['authSession(auth) + requireAuth(c) (database, SQLite)', 'database', HONO_CPU_OVER_NOOP.database],
    ['better-auth getSession middleware (SQLite)', 'better-auth', undefined],
  ],
  { bare: 'bare', noop: 'noop' },
  5,
);
const overBetterAuth = t.rps.database / t.rps['better-auth'];
console.log(
  `SQLite route vs better-auth on the same Hono app: ${fmt(overBetterAuth)}× the requests/s (goal ${goalText(
    SQLITE_OVER_BETTER_AUTH,
  )}: ${verdict(overBetterAuth, SQLITE_OVER_BETTER_AUTH)})`,
);

const { printExpressThroughput, printFastifyThroughput } = await import('./fastify.js');
await printFastifyThroughput();
await printExpressThroughput();

const { printFrameworkThroughput, printNode24Throughput } = await import('./frameworks.js');
await printNode24Throughput();
await printFrameworkThroughput();

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
  const { benchBullmq, bullmqRow } = (await import('./bullmq.js')) as typeof import('./bullmq.js');
  console.log(
    '\n== BullMQ engine (messages/s and peak RSS MB, 5 ms I/O per message; goal: engine ≥ 95 % of a raw BullMQ Worker at equal concurrency and equal job retention, raw and engine runs alternating)',
  );
  for (const [name, value] of Object.entries(await benchBullmq()))
    console.log(bullmqRow(name, value, (n) => fmt(n, 1)));
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
