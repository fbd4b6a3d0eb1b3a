import { parseDuration, type Duration } from '../duration.js';
import { clockNow, type EngineClock } from '../engine/clock.js';
import type { EngineRun, FinishedRun, StepStore, TriggerEngine } from '../engine/types.js';
import { TriggerError } from '../errors.js';
import type { RunLedger } from './run-ledger.js';
import type { Registry } from './registry.js';
import { readSteps, type TriggerStep } from './step-records.js';

/**
 * A run (a stored message: a queue message or an emitted event) as `runtime.getRun(id)` reports it.
 * `status`: `waiting`, `delayed` (sent with a delay or waiting for a retry), `active`, `completed`, `failed`.
 * `attempts` counts deliveries started. Times are `Date`s.
 */
export interface TriggerRun {
  id: string;
  /** The trigger that runs it (the queue's consumer, or an emit's target); `null` for a queue nobody consumes. */
  trigger: string | null;
  queue: string;
  status: EngineRun['status'];
  attempts: number;
  /** The handler's return value (JSON on BullMQ), once completed. */
  result?: unknown;
  /** Why it failed (the last error, `EXPIRED`, `STALLED`, the cancel), once failed. */
  error?: string;
  timestamps: { created: Date; started?: Date; finished?: Date };
  /**
   * Its durable steps (`ctx.step.*`) in the order they were first called, as the engine stores them: while
   * it runs or is suspended, and after it completed while the store keeps them (memory engine: the last
   * 1,000 finished runs; BullMQ: 7 days). Empty when it used none (or they are no longer kept). Only
   * `runtime.getRun` reads them; the runs of `wait`/`triggerAndWait` leave them out.
   */
  steps?: TriggerStep[];
}

/** A run that finished for good, as `runtime.onRunFinished` listeners get it. */
export interface FinishedTriggerRun {
  id: string;
  trigger: string | null;
  queue: string;
  status: 'completed' | 'failed';
  result?: unknown;
  error?: string;
}

/** Options of waiting for a run (`send(body, {wait: true})`, `triggerAndWait`). */
export interface RunWaitOptions {
  /** How long to wait for the run to finish. Default `'30s'`. */
  timeout?: Duration;
}

/** The queue of the internal emit runs, and what the run API needs of the runtime. */
export interface RunApiHost {
  readonly engine: TriggerEngine;
  readonly registry: Registry;
  readonly ledger: RunLedger;
  readonly emitQueue: string;
  /** Where durable steps are kept, and the clock their times are on. */
  readonly steps: StepStore;
  readonly clock: EngineClock;
}

/** The durable-steps id of the run that message `id` of `queue` carries. */
export function stepsIdOf(host: Pick<RunApiHost, 'emitQueue'>, queue: string, id: string): string {
  return queue === host.emitQueue ? `emit:${queue}:${id}` : `queue:${queue}:${id}`;
}

/** `run.status` values that end a run. */
const FINAL = new Set(['completed', 'failed']);
/** A safety net while waiting on a shared engine: the run's state is read again this often (ms). */
const RECHECK_MS = 500;

/** The trigger that runs message `id` of `queue` with `body`. */
function triggerOf(host: RunApiHost, queue: string, body: unknown): string | null {
  if (queue === host.emitQueue) {
    const target = (body as { target?: unknown } | null)?.target;
    return typeof target === 'string' ? target : null;
  }
  return host.registry.consumerOf(queue)?.name ?? null;
}

function view(host: RunApiHost, run: EngineRun): TriggerRun {
  return {
    id: run.id,
    trigger: triggerOf(host, run.queue, run.body),
    queue: run.queue,
    status: run.status,
    attempts: run.attempts,
    ...(run.status === 'completed' ? { result: run.result } : {}),
    ...(run.error === undefined ? {} : { error: run.error }),
    timestamps: {
      created: run.createdAt,
      ...(run.startedAt ? { started: run.startedAt } : {}),
      ...(run.finishedAt ? { finished: run.finishedAt } : {}),
    },
  };
}

/** The queues a run id may live in: the consumed queues and the emit queue. */
function knownQueues(host: RunApiHost): string[] {
  const queues = host.registry.ofType('queue').map((t) => (t.definition.source as { name: string }).name);
  return [...queues, host.emitQueue];
}

/**
 * Reads run `id` of `queue` (or of every known queue), from the engine or the in-process ledger; with
 * `withSteps`, its durable steps too.
 */
export async function readRun(
  host: RunApiHost,
  id: string,
  queue?: string,
  withSteps = false,
): Promise<TriggerRun | null> {
  const queues = queue === undefined ? knownQueues(host) : [queue];
  const found = await Promise.all(
    queues.map((q) => (host.engine.getRun ? host.engine.getRun(q, id) : Promise.resolve(host.ledger.get(q, id)))),
  );
  const run = found.find((r) => r !== null);
  if (!run) return null;
  const shown = view(host, run);
  if (withSteps) shown.steps = await readSteps(host.steps, stepsIdOf(host, run.queue, run.id), clockNow(host.clock));
  return shown;
}

/** Subscribes to runs of `queues` finished on any instance (the engine's events, else this process's). */
export async function subscribeFinished(
  host: RunApiHost,
  queues: readonly string[],
  listener: (run: FinishedTriggerRun) => void,
): Promise<() => void> {
  const relay = (run: FinishedRun) => {
    if (!queues.includes(run.queue)) return;
    if (run.queue !== host.emitQueue) {
      listener({ ...run, trigger: triggerOf(host, run.queue, null) });
      return;
    }
    // An emit's target is in its stored body.
    void readRun(host, run.id, run.queue).then(
      (stored) => listener({ ...run, trigger: stored?.trigger ?? null }),
      () => listener({ ...run, trigger: null }),
    );
  };
  if (host.engine.onFinished) return host.engine.onFinished(queues, relay);
  return host.ledger.onFinished(relay);
}

/**
 * Waits until run `id` of `queue` finishes: resolves with the completed run, rejects with `RUN_FAILED`
 * (the run in `context.run`), `RUN_WAIT_TIMEOUT` or `RUN_NOT_FOUND`.
 */
export async function waitForRun(
  host: RunApiHost,
  queue: string,
  id: string,
  options: RunWaitOptions = {},
): Promise<TriggerRun> {
  const timeoutMs = parseDuration(options.timeout ?? '30s', 'wait({timeout})');
  let finish!: (run: TriggerRun | null) => void;
  const finished = new Promise<TriggerRun | null>((resolve) => (finish = resolve));
  const check = async () => {
    const run = await readRun(host, id, queue);
    if (!run || FINAL.has(run.status)) finish(run);
  };
  const unsubscribe = await subscribeFinished(host, [queue], (run) => {
    if (run.id === id) void check().catch(() => {});
  });
  const timer = setTimeout(() => finish(undefined as never), timeoutMs);
  const recheck = host.engine.onFinished ? setInterval(() => void check().catch(() => {}), RECHECK_MS) : undefined;
  try {
    await check();
    const run = await finished;
    if (run === undefined) {
      throw new TriggerError(`run ${id} of queue "${queue}" did not finish within ${timeoutMs} ms`, {
        code: 'RUN_WAIT_TIMEOUT',
        retryable: true,
        context: { id, queue, timeoutMs },
      });
    }
    if (run === null) {
      throw new TriggerError(`run ${id} of queue "${queue}" is unknown (removed, cancelled or expired)`, {
        code: 'RUN_NOT_FOUND',
        retryable: false,
        context: { id, queue },
      });
    }
    if (run.status === 'failed') {
      throw new TriggerError(`run ${id} of "${run.trigger ?? queue}" failed: ${run.error ?? 'unknown error'}`, {
        code: 'RUN_FAILED',
        retryable: false,
        context: { run },
      });
    }
    return run;
  } finally {
    clearTimeout(timer);
    if (recheck) clearInterval(recheck);
    unsubscribe();
  }
}
