/**
 * Prints one framework's throughput table for `npm run bench`: each route's requests/s and server CPU µs per
 * request against the bare route, the µs over the framework's own no-op middleware, and the goal with its verdict.
 */
import { cpus, loadavg } from 'node:os';
import { goalText, verdict, type Goal } from './goals.js';
import type { Throughput } from './throughput.js';

const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** A row: label, route kind, and the goal on its CPU µs over `noop` (none for the bare and no-op rows). */
export type AdapterRow<K extends string> = readonly [label: string, kind: K, goal: Goal | undefined];

/** Options of {@link printAdapterTable}: the name of the `bare` column's base, and the servers' Node version. */
export interface AdapterTableOptions {
  /** Default `bare`: the column reads `% of bare req/s`. */
  baseName?: string;
  /** Default this process's `process.versions.node`. */
  node?: string;
}

export function printAdapterTable<K extends string>(
  title: string,
  t: Throughput<K>,
  rows: ReadonlyArray<AdapterRow<K>>,
  base: { bare: K; noop: K },
  rounds: number,
  { baseName = 'bare', node = process.versions.node }: AdapterTableOptions = {},
): void {
  // More runnable work than cores over the last 5 minutes: the pinned server shared its core with other jobs.
  const load = loadavg()[1]!;
  const busy = load > cpus().length;
  console.log(
    `\n== ${title} (autocannon, 20 connections, loopback; median of ${rounds} interleaved rounds; ${
      t.pinned ? 'server on core 1, load generator on core 0' : 'not pinned to cores'
    }; Node ${node}; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores)`,
  );
  console.log(`| route | req/s | % of ${baseName} req/s | server CPU µs per request | µs over the no-op | goal | |`);
  console.log('|---|---|---|---|---|---|---|');
  for (const [label, kind, goal] of rows) {
    const cpu = t.cpu?.[kind];
    const noop = t.cpu?.[base.noop];
    const over = cpu !== undefined && noop !== undefined ? cpu - noop : undefined;
    const cells = [
      label,
      fmt(t.rps[kind], 0),
      `${fmt((t.rps[kind] / t.rps[base.bare]) * 100)} %`,
      cpu === undefined ? 'n/a' : fmt(cpu, 2),
      over === undefined || kind === base.bare || kind === base.noop ? '' : `${over >= 0 ? '+' : ''}${fmt(over, 2)}`,
      goal ? goalText(goal) : '',
      goal ? (busy ? 'n/a (busy machine)' : verdict(over, goal)) : '',
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
  if (busy)
    console.log(
      `(5-minute load average ${load.toFixed(1)} on ${cpus().length} cores: other jobs shared the server's core, ` +
        "and /proc charges CPU by scheduler tick, so these µs are not the routes' cost and carry no verdict; " +
        'run again on an idle machine)',
    );
}
