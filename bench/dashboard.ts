/**
 * The dashboard's cost to a running app: queue throughput through a handler
 * that acks every message, with no dashboard and with a dashboard recording runs
 * that nobody is looking at, in batches of 10 (as the triggers benchmark)
 * and of 1 (one run per message, the worst case for per-run bookkeeping).
 * Median of interleaved rounds; goal: under 2 % overhead. Run this file
 * directly to print the numbers as JSON.
 */
import { pathToFileURL } from 'node:url';
import { createDashboard, createRunHistory } from '@framework/dashboard';
import type { RunRecord } from '@framework/trigger';
import { queueThroughput } from './triggers.js';

/** Messages per second through the triggers benchmark's acking consumer, optionally with a dashboard attached. */
function throughput(withDashboard: boolean, batchSize: number, total: number): Promise<number> {
  return queueThroughput(
    batchSize,
    total,
    withDashboard ? (runtime) => createDashboard({ runtime, mode: 'development' }).close : undefined,
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Median messages/s without and with a dashboard, over interleaved rounds. */
async function compare(batchSize: number, rounds: number, total: number): Promise<[number, number]> {
  await throughput(false, batchSize, 2_000);
  await throughput(true, batchSize, 2_000);
  const bare: number[] = [];
  const recorded: number[] = [];
  for (let round = 0; round < rounds; round++) {
    bare.push(await throughput(false, batchSize, total));
    recorded.push(await throughput(true, batchSize, total));
  }
  return [median(bare), median(recorded)];
}

/**
 * Nanoseconds the dashboard adds per finished run, measured directly: a run record built as the runtime builds
 * it, handed to the history's listener, a million times. Steadier than the throughput difference, which on a
 * shared 2-core machine moves by a few percent from round to round.
 */
function recordingNanosPerRun(runs = 1_000_000): number {
  let listener: ((run: RunRecord) => void) | undefined;
  const history = createRunHistory({ onRun: (fn) => ((listener = fn), () => (listener = undefined)) });
  let sequence = 0;
  const run = () =>
    listener!({
      id: `run-${++sequence}`,
      trigger: 'consumer',
      source: 'queue',
      attempt: 1,
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      status: 'ok',
      startedAt: new Date(),
      durationMs: 1.5,
      logs: [],
    });
  for (let i = 0; i < 100_000; i++) run();
  const started = performance.now();
  for (let i = 0; i < runs; i++) run();
  const nanos = ((performance.now() - started) * 1e6) / runs;
  void history.close();
  return nanos;
}

/** Returns named numbers: throughputs and the overhead in percent, for batches of 10 and of 1. */
export async function benchDashboard(rounds = 15): Promise<Record<string, number>> {
  const results: Record<string, number> = {};
  for (const [batchSize, total] of [
    [10, 9_900],
    [1, 9_000],
  ] as const) {
    const [without, withDashboard] = await compare(batchSize, rounds, total);
    results[`batch ${batchSize}: messages/s, no dashboard`] = without;
    results[`batch ${batchSize}: messages/s, dashboard recording`] = withDashboard;
    results[`batch ${batchSize}: overhead (%, goal < 2)`] = ((without - withDashboard) / without) * 100;
  }
  // The same overhead from the direct cost: one run per message costs `nanos` on top of 1e9 / (messages/s).
  const nanos = recordingNanosPerRun();
  results['recording cost per run (ns)'] = nanos;
  for (const batchSize of [10, 1]) {
    // A run covers `batchSize` messages: its cost is spread over their time.
    const nanosPerRun = (1e9 * batchSize) / results[`batch ${batchSize}: messages/s, no dashboard`]!;
    results[`batch ${batchSize}: overhead from the per-run cost (%, goal < 2)`] = (nanos / nanosPerRun) * 100;
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchDashboard(), null, 2));
}
