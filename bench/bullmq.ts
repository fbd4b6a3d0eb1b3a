/**
 * BullMQ engine benchmark, made fair: messages per second through a queue trigger on `bullmqEngine` beside a
 * raw BullMQ `Worker` at the same concurrency, both doing 5 ms of simulated I/O per message, on the same Redis
 * (REDIS_URL, default 127.0.0.1:6379), both keeping completed jobs as the engine does by default (24 h, for
 * `send({id})` deduplication and `runtime.getRun(id)`). Two engine forms at each width N (10, 100):
 *
 * - batch N: one batch of N messages at a time (`batchSize: N`), the handler awaiting its batch's I/O together;
 * - batch 1 × concurrency N: one message per handler call, N in flight in each process (`batchSize: 1`,
 *   `config.concurrency: { limit: N, scope: 'instance' }`), the per-message form a raw `Worker` with
 *   `concurrency: N` is usually replaced by, with the same meaning of N.
 *
 * At width 100 the per-message form also runs with the limit across the fleet (`config.concurrency: 100`, BullMQ's
 * global concurrency of the queue, which Redis checks on every fetch), beside the same raw runs: a raw `Worker`
 * has no such limit, so that row shows what the fleet-wide limit costs rather than the engine's overhead.
 *
 * At width 100 the per-message form runs once more with retention off on both sides (`idempotencyTtl: '0s'`
 * beside `removeOnComplete: true`), so the engine's own cost shows apart from what keeping jobs costs Redis.
 *
 * Each figure runs in its own child process so its peak RSS is its own, after an unmeasured drain of 1,000
 * messages of the same case in that process (a long-running consumer's compiled code, not its first second's
 * JIT work). A rate is taken over the steady window from the first handler call to the last handler's return,
 * so neither side's startup counts. Raw and engine runs alternate, five rounds and raw once more; each engine
 * run is divided by the mean of the raw runs just before and after it, and a form's ratio is the median of
 * those, so a machine whose load drifts skews both sides alike and a burst of load on one round does not decide
 * (the raw runs' spread is printed: on a busy machine it tells how far to trust a ratio). Goal
 * (`BULLMQ_OVER_RAW`): the engine keeps ≥ 95 % of raw at equal concurrency. `benchBullmq()`
 * returns the numbers and prints nothing; run this file directly to print them as JSON with the verdicts.
 * `bench/bullmq-commands.ts` measures what load does not skew: Redis commands and CPU µs per message.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { atLeast, goalText, verdict } from './goals.js';
import { deletePrefix, engineDrain, inChild, rawDrain, type EngineShape, type Retention } from './bullmq-workload.js';

/** The engine's rate over a raw BullMQ Worker's at equal concurrency, in % (issue 39). */
export const BULLMQ_OVER_RAW = atLeast(95, ' %');

/** Row names ending with this suffix are ratios to `BULLMQ_OVER_RAW`. */
export const RATIO_SUFFIX = '(% of raw at equal concurrency, median of each run over the raw runs around it)';
/** The ratio of a form with a fleet-wide limit, which a raw Worker has not: for information, no goal. */
const FLEET_RATIO_SUFFIX = '(% of raw, whose Worker holds no fleet-wide limit)';

type Case = { retention: Retention; total: number } & (
  { kind: 'raw'; width: number } | { kind: 'engine'; shape: EngineShape }
);

/** Messages each child drains first, unmeasured, so both sides are measured with their code compiled (JIT). */
const WARM_UP = 1_000;

/** Runs one case in this process on a fresh prefix: its rate and the process's peak RSS in MB. */
async function runCase(c: Case): Promise<{ rate: number; peakRssMb: number }> {
  const warm = `bench-bullmq-${randomBytes(4).toString('hex')}`;
  try {
    const options = { prefix: warm, retention: c.retention };
    if (c.kind === 'raw') await rawDrain(c.width, WARM_UP, options);
    else await engineDrain(c.shape, WARM_UP, options);
  } finally {
    await deletePrefix(warm);
  }
  const prefix = `bench-bullmq-${randomBytes(4).toString('hex')}`;
  try {
    const options = { prefix, retention: c.retention };
    const { rate } =
      c.kind === 'raw' ? await rawDrain(c.width, c.total, options) : await engineDrain(c.shape, c.total, options);
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
  [`batch 1 × concurrency ${width} per instance`, { batchSize: 1, concurrency: width, scope: 'instance' }],
  ...(width === 100
    ? ([[`batch 1 × concurrency ${width} across the fleet`, { batchSize: 1, concurrency: width }]] as Array<
        [string, EngineShape]
      >)
    : []),
];

/** Messages per measured drain at a width: about a second of steady flow at each (5 ms I/O per message). */
const TOTAL_AT: Record<number, number> = { 10: 2_000, 100: 12_000 };

/** Rounds of raw and engine runs that alternate at a width (raw runs once more, after the last round). */
const ROUNDS = 5;

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** The middle value (the mean of the two middle ones for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * At `width` with `retention`, `ROUNDS` rounds of raw then each engine form, and raw once more, each run in
 * its own child, into `results`: the mean rates, the raw runs' spread, peak RSS, and each form's ratio to raw:
 * each of its runs over the mean of the raw runs just before and after it, the median of those. A run is
 * compared with its neighbours, so a drift of the machine's load skews both sides alike, and the median leaves
 * out a round that a burst of load hit. `suffix` tells the rows of a retention apart.
 */
async function compareAt(
  width: number,
  forms: Array<[string, EngineShape]>,
  retention: Retention,
  suffix: string,
  results: Record<string, number>,
): Promise<void> {
  const total = TOTAL_AT[width]!;
  const raw: Array<{ rate: number; peakRssMb: number }> = [];
  const engines = forms.map((): Array<{ rate: number; peakRssMb: number }> => []);
  for (let round = 0; round < ROUNDS; round++) {
    raw.push(await runInChild({ kind: 'raw', width, total, retention }));
    for (const [i, [, shape]] of forms.entries())
      engines[i]!.push(await runInChild({ kind: 'engine', shape, total, retention }));
  }
  raw.push(await runInChild({ kind: 'raw', width, total, retention }));
  const rawRates = raw.map((run) => run.rate);
  const rawMean = mean(rawRates);
  const runs = `mean of ${raw.length} runs`;
  results[`raw BullMQ Worker, concurrency ${width}${suffix} (jobs/s, ${runs})`] = rawMean;
  results[`raw BullMQ Worker, concurrency ${width}${suffix} (spread of its runs, % of their mean)`] =
    ((Math.max(...rawRates) - Math.min(...rawRates)) / rawMean) * 100;
  results[`raw BullMQ Worker, concurrency ${width}${suffix} (peak RSS MB)`] = Math.max(...raw.map((r) => r.peakRssMb));
  for (const [i, [label, shape]] of forms.entries()) {
    const rate = mean(engines[i]!.map((run) => run.rate));
    results[`bullmq engine, ${label}${suffix} (messages/s, mean of ${ROUNDS} runs)`] = rate;
    results[`bullmq engine, ${label}${suffix} (peak RSS MB)`] = Math.max(...engines[i]!.map((r) => r.peakRssMb));
    // A fleet-wide limit is work a raw Worker does not do: its ratio is printed without the goal.
    const fleetWide = shape.concurrency !== undefined && shape.scope !== 'instance';
    const ratios = engines[i]!.map((run, round) => run.rate / ((rawRates[round]! + rawRates[round + 1]!) / 2));
    results[`bullmq engine, ${label}${suffix} ${fleetWide ? FLEET_RATIO_SUFFIX : RATIO_SUFFIX}`] = median(ratios) * 100;
  }
}

/** Runs the BullMQ benchmarks (about 4 min) and returns named numbers. */
export async function benchBullmq(): Promise<Record<string, number>> {
  const results: Record<string, number> = {};
  for (const width of [10, 100]) {
    // Warm-up (Redis, scripts).
    await runInChild({ kind: 'engine', shape: { batchSize: width }, total: 500, retention: 'engine default' });
    await compareAt(width, shapesAt(width), 'engine default', '', results);
  }
  const perMessage: Array<[string, EngineShape]> = [shapesAt(100)[1]!];
  await compareAt(100, perMessage, 'none', ', jobs removed on completion', results);
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
