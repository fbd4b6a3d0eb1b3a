/**
 * The dashboard's cost to a running app: queue throughput through a handler
 * that acks every message, with no dashboard and with a dashboard recording runs
 * that nobody is looking at, in batches of 10 (as the triggers benchmark)
 * and of 1 (one run per message, the worst case for per-run bookkeeping).
 * Median of interleaved rounds; goal: under 2 % overhead. Run this file
 * directly to print the numbers as JSON.
 */
import { pathToFileURL } from 'node:url';
import { createDashboard } from '@framework/dashboard';
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

/** Returns named numbers: throughputs and the overhead in percent, for batches of 10 and of 1. */
export async function benchDashboard(rounds = 7): Promise<Record<string, number>> {
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
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchDashboard(), null, 2));
}
