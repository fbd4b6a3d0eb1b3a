/**
 * `npm run bench:scale`: how the storage calls of request paths and operator pages grow with the number of
 * users. Seeds 1 000 users and then `--users N` (default 1 000 000) in the kit's own tables, on SQLite and, when
 * `DATABASE_URL` is set, on PostgreSQL (`--dialect sqlite|postgres` runs only one); prints per operation the
 * mean time at each size, their ratio and the longest event-loop block (`monitorEventLoopDelay`; its 99th
 * percentile beside it, as other processes on a busy machine add to the maximum). Goal: at most 3× growth and no block over 50 ms; each row says met or missed.
 * Calls off request paths and operator pages (a scheduled purge, the exact count no page calls) are held to the
 * block goal only, and say why.
 * Not a test (it is not part of `npm test`): CI runs it with `--users 20000`.
 * @module
 */
import { parseArgs } from 'node:util';
import { analyze, openStorages, type Dialect } from './databases.js';
import { measure, type Timing } from './measure.js';
import { operations } from './operations.js';
import { seed } from './seed.js';

const SMALL = 1_000;
const MAX_RATIO = 3;
const MAX_BLOCK_MS = 50;

const { values } = parseArgs({
  options: { users: { type: 'string', default: '1000000' }, dialect: { type: 'string' } },
});
const large = Number(values.users);
if (!Number.isInteger(large) || large <= SMALL) throw new TypeError(`--users must be an integer above ${SMALL}`);
if (values.dialect !== undefined && values.dialect !== 'sqlite' && values.dialect !== 'postgres')
  throw new TypeError('--dialect must be sqlite or postgres');
if (values.dialect === 'postgres' && !process.env.DATABASE_URL)
  throw new TypeError('--dialect postgres needs DATABASE_URL');

const dialects: Dialect[] = values.dialect
  ? [values.dialect]
  : process.env.DATABASE_URL
    ? ['sqlite', 'postgres']
    : ['sqlite'];
const fmt = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);
let missed = 0;

for (const dialect of dialects) {
  const results = new Map<string, Timing[]>();
  const offPath = new Map<string, string>();
  for (const n of [SMALL, large]) {
    const storages = await openStorages(dialect);
    try {
      const started = performance.now();
      await seed(storages, n);
      await analyze(storages);
      console.error(
        `${dialect}: seeded ${n.toLocaleString('en')} users in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      for (const operation of operations(storages, n)) {
        const timing = await measure(operation, n);
        if (operation.offPath) offPath.set(operation.name, operation.offPath);
        results.set(operation.name, [...(results.get(operation.name) ?? []), timing]);
      }
    } finally {
      await storages.dispose();
    }
  }
  console.log(
    `\n== ${dialect}: mean time per call at ${SMALL.toLocaleString('en')} and ${large.toLocaleString('en')} users`,
  );
  console.log(
    `| operation | ${SMALL.toLocaleString('en')} | ${large.toLocaleString('en')} | ratio | longest block (p99) | goal (≤ ${MAX_RATIO}×, ≤ ${MAX_BLOCK_MS} ms) |`,
  );
  console.log('|---|---|---|---|---|---|');
  for (const [name, [small, big]] of results) {
    const ratio = big!.meanMs / small!.meanMs;
    const block = Math.max(small!.maxBlockMs, big!.maxBlockMs);
    const p99 = Math.max(small!.p99BlockMs, big!.p99BlockMs);
    const why = offPath.get(name);
    const met = (why !== undefined || ratio <= MAX_RATIO) && block <= MAX_BLOCK_MS;
    if (!met) missed++;
    const verdict = `${met ? 'met' : 'missed'}${why ? ` (block only: ${why})` : ''}`;
    console.log(
      `| ${name} | ${fmt(small!.meanMs)} | ${fmt(big!.meanMs)} | ${ratio.toFixed(2)}× | ${block.toFixed(1)} ms (${p99.toFixed(1)} ms) | ${verdict} |`,
    );
  }
}
console.log(`\n${missed === 0 ? 'every goal met' : `${missed} goal(s) missed`}`);
