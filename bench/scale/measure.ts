/**
 * Times one operation: the mean time per call over its calls, and the longest event-loop block while they ran
 * (`perf_hooks.monitorEventLoopDelay`, 1 ms resolution). Calls run one after another, each after a
 * `setImmediate`, so the monitor sees every synchronous stretch (better-sqlite3 runs in the calling thread).
 * @module
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Operation } from './operations.js';

export interface Timing {
  /** Mean milliseconds per call, or per 1 000 rows for an operation with `rowsOf`. */
  meanMs: number;
  /** The longest event-loop block seen, in milliseconds. */
  maxBlockMs: number;
  /** The 99th percentile of the event-loop delay, in milliseconds (less sensitive to other processes). */
  p99BlockMs: number;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `operation` `reps` times for random users of 1..n (a fixed sequence, the same at every size). */
export async function measure(operation: Operation, n: number): Promise<Timing> {
  const reps = operation.reps ?? 300;
  let state = 12345;
  const nextUser = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return 1 + (state % n);
  };
  if (operation.warmUp !== false) await operation.run(nextUser());
  const monitor = monitorEventLoopDelay({ resolution: 1 });
  monitor.enable();
  // Two timer turns first: the monitor records a delay from its second turn on.
  await new Promise<void>((resolve) => setTimeout(resolve, 5));
  let total = 0;
  let rows = 0;
  for (let k = 0; k < reps; k++) {
    await tick();
    const user = nextUser();
    const start = performance.now();
    const result = await operation.run(user);
    total += performance.now() - start;
    if (operation.rowsOf) rows += operation.rowsOf(result);
  }
  // A timer turn, so the monitor records the delay of the last call's synchronous stretch before it stops.
  await new Promise<void>((resolve) => setTimeout(resolve, 5));
  monitor.disable();
  const meanMs = operation.rowsOf ? (total / Math.max(1, rows)) * 1_000 : total / reps;
  return { meanMs, maxBlockMs: monitor.max / 1e6, p99BlockMs: monitor.percentile(99) / 1e6 };
}
