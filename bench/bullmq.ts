/**
 * BullMQ engine benchmark, made fair: messages per second through a queue
 * trigger on `bullmqEngine` beside a raw BullMQ `Worker` at the same
 * concurrency (batch 10 vs `concurrency: 10`, batch 100 vs `concurrency:
 * 100`), both doing 5 ms of simulated I/O per message (the engine's handler
 * awaits its batch's I/O together, as the raw worker overlaps its jobs), on
 * the same Redis (REDIS_URL, default 127.0.0.1:6379). Each figure runs in its
 * own child process so its peak RSS is its own. `benchBullmq()` returns the
 * numbers and prints nothing; run this file directly to print them as JSON.
 * Raw runs before and after the engine, and the engine is compared with their mean, so a machine whose load
 * drifts during the run skews both sides alike. Goal: the engine keeps ≥ 95 % of raw at equal concurrency.
 * `bench/bullmq-commands.ts` measures what load does not skew: Redis commands and CPU µs per message.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { deletePrefix, engineDrain, inChild, rawDrain } from './bullmq-workload.js';

type Case = { kind: 'raw' | 'engine'; width: number; total: number };

/** Runs one case in this process on a fresh prefix: its rate and the process's peak RSS in MB. */
async function runCase(c: Case): Promise<{ rate: number; peakRssMb: number }> {
  const prefix = `bench-bullmq-${randomBytes(4).toString('hex')}`;
  try {
    const drain = c.kind === 'raw' ? rawDrain : engineDrain;
    const { rate } = await drain(c.width, c.total, { prefix });
    return { rate, peakRssMb: process.resourceUsage().maxRSS / 1024 };
  } finally {
    await deletePrefix(prefix);
  }
}

/** Runs one case in a child process, so its figures are its own. */
function runInChild(c: Case): Promise<{ rate: number; peakRssMb: number }> {
  return inChild(import.meta.url, 'BENCH_BULLMQ_CASE', c);
}

/** Runs the BullMQ benchmarks (about 40–80 s) and returns named numbers. */
export async function benchBullmq(): Promise<Record<string, number>> {
  const total = 4_000;
  const results: Record<string, number> = {};
  for (const width of [10, 100]) {
    await runInChild({ kind: 'engine', width, total: 500 }); // warm-up (Redis, scripts)
    const raw = await runInChild({ kind: 'raw', width, total });
    const engine = await runInChild({ kind: 'engine', width, total });
    const rawAfter = await runInChild({ kind: 'raw', width, total });
    results[`raw BullMQ Worker, concurrency ${width}, before (jobs/s)`] = raw.rate;
    results[`raw BullMQ Worker, concurrency ${width}, after (jobs/s)`] = rawAfter.rate;
    results[`raw BullMQ Worker, concurrency ${width} (peak RSS MB)`] = Math.max(raw.peakRssMb, rawAfter.peakRssMb);
    results[`bullmq engine, batch ${width} (messages/s)`] = engine.rate;
    results[`bullmq engine, batch ${width} (peak RSS MB)`] = engine.peakRssMb;
    results[`bullmq engine, batch ${width} (% of raw before and after, at equal concurrency)`] =
      (engine.rate / ((raw.rate + rawAfter.rate) / 2)) * 100;
  }
  return results;
}

if (process.env.BENCH_BULLMQ_CASE) {
  console.log(JSON.stringify(await runCase(JSON.parse(process.env.BENCH_BULLMQ_CASE) as Case)));
  process.exit(0);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchBullmq(), null, 2));
  process.exit(0);
}
