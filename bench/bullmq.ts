/**
 * BullMQ engine benchmark, made fair: messages per second through a queue trigger on `bullmqEngine` beside a
 * raw BullMQ `Worker` at the same concurrency, both doing 5 ms of simulated I/O per message, on the same Redis
 * (REDIS_URL, default 127.0.0.1:6379). Two engine forms at each width N (10, 100):
 *
 * - batch N: one batch of N messages at a time (`batchSize: N`), the handler awaiting its batch's I/O together;
 * - batch 1 × concurrency N: one message per handler call, N in flight (`batchSize: 1`, `config.concurrency:
 *   N`), the per-message form a raw `Worker` with `concurrency: N` is usually replaced by.
 *
 * Each figure runs in its own child process so its peak RSS is its own, after an unmeasured drain of 1,000
 * messages of the same case in that process (a long-running consumer's compiled code, not its first second's
 * JIT work, which weighs more on the engine's longer run path than on a raw Worker). Raw runs before and after the engine
 * rows of a width, and each engine row is compared with their mean, so a machine whose load drifts during the
 * run skews both sides alike. Goal (`BULLMQ_OVER_RAW`): the engine keeps ≥ 95 % of raw at equal concurrency.
 * `benchBullmq()` returns the numbers and prints nothing; run this file directly to print them as JSON with
 * the verdicts. `bench/bullmq-commands.ts` measures what load does not skew: Redis commands and CPU µs per
 * message.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { atLeast, goalText, verdict } from './goals.js';
import { deletePrefix, engineDrain, inChild, rawDrain, type EngineShape } from './bullmq-workload.js';

/** The engine's rate over a raw BullMQ Worker's at equal concurrency, in % (issue 39). */
export const BULLMQ_OVER_RAW = atLeast(95, ' %');

/** Row names ending with this suffix are ratios to `BULLMQ_OVER_RAW`. */
export const RATIO_SUFFIX = '(% of raw before and after, at equal concurrency)';

type Case = { kind: 'raw'; width: number; total: number } | { kind: 'engine'; shape: EngineShape; total: number };

/** Messages each child drains first, unmeasured, so both sides are measured with their code compiled (JIT). */
const WARM_UP = 1_000;

/** Runs one case in this process on a fresh prefix: its rate and the process's peak RSS in MB. */
async function runCase(c: Case): Promise<{ rate: number; peakRssMb: number }> {
  const warm = `bench-bullmq-${randomBytes(4).toString('hex')}`;
  try {
    if (c.kind === 'raw') await rawDrain(c.width, WARM_UP, { prefix: warm });
    else await engineDrain(c.shape, WARM_UP, { prefix: warm });
  } finally {
    await deletePrefix(warm);
  }
  const prefix = `bench-bullmq-${randomBytes(4).toString('hex')}`;
  try {
    const { rate } =
      c.kind === 'raw' ? await rawDrain(c.width, c.total, { prefix }) : await engineDrain(c.shape, c.total, { prefix });
    return { rate, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  } finally {
    await deletePrefix(prefix);
  }
}

/** Runs one case in a child process, so its figures are its own. */
function runInChild(c: Case): Promise<{ rate: number; peakRssMb: number }> {
  return inChild(import.meta.url, 'BENCH_BULLMQ_CASE', c);
}

/** The engine forms measured at `width`, by row label. */
const shapesAt = (width: number): Array<[string, EngineShape]> => [
  [`batch ${width}`, { batchSize: width }],
  [`batch 1 × concurrency ${width}`, { batchSize: 1, concurrency: width }],
];

/** Runs the BullMQ benchmarks (about 1–2 min) and returns named numbers. */
export async function benchBullmq(): Promise<Record<string, number>> {
  const total = 4_000;
  const results: Record<string, number> = {};
  for (const width of [10, 100]) {
    await runInChild({ kind: 'engine', shape: { batchSize: width }, total: 500 }); // warm-up (Redis, scripts)
    const raw = await runInChild({ kind: 'raw', width, total });
    const engines: Array<[string, { rate: number; peakRssMb: number }]> = [];
    for (const [label, shape] of shapesAt(width))
      engines.push([label, await runInChild({ kind: 'engine', shape, total })]);
    const rawAfter = await runInChild({ kind: 'raw', width, total });
    results[`raw BullMQ Worker, concurrency ${width}, before (jobs/s)`] = raw.rate;
    results[`raw BullMQ Worker, concurrency ${width}, after (jobs/s)`] = rawAfter.rate;
    results[`raw BullMQ Worker, concurrency ${width} (peak RSS MB)`] = Math.max(raw.peakRssMb, rawAfter.peakRssMb);
    for (const [label, engine] of engines) {
      results[`bullmq engine, ${label} (messages/s)`] = engine.rate;
      results[`bullmq engine, ${label} (peak RSS MB)`] = engine.peakRssMb;
      results[`bullmq engine, ${label} ${RATIO_SUFFIX}`] = (engine.rate / ((raw.rate + rawAfter.rate) / 2)) * 100;
    }
  }
  return results;
}

/** The printed line of a row: ratio rows carry the goal and its verdict. */
export function bullmqRow(name: string, value: number, fmt: (n: number) => string): string {
  if (!name.endsWith(RATIO_SUFFIX)) return `${name}: ${fmt(value)}`;
  return `${name}: ${fmt(value)} (goal ${goalText(BULLMQ_OVER_RAW)}: ${verdict(value, BULLMQ_OVER_RAW)})`;
}

if (process.env.BENCH_BULLMQ_CASE) {
  console.log(JSON.stringify(await runCase(JSON.parse(process.env.BENCH_BULLMQ_CASE) as Case)));
  process.exit(0);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const [name, value] of Object.entries(await benchBullmq()))
    console.log(bullmqRow(name, value, (n) => n.toFixed(1)));
  process.exit(0);
}
