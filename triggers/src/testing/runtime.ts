/**
 * `createTestRuntime`: the trigger runtime on the memory engine with a fake
 * clock, for tests that run schedules, retries, delays, debounce and durable
 * steps without waiting in real time.
 *
 * @module
 */
import { withHandler } from '../define.js';
import { TriggerError } from '../errors.js';
import { parseDuration, type Duration } from '../duration.js';
import { fakeClock, type FakeClock } from '../engine/fake-clock.js';
import { memoryEngine } from '../engine/memory.js';
import type { TriggerEngine } from '../engine/types.js';
import type { TriggerLimits } from '../limits.js';
import { createTriggerRuntime, type TriggerRuntime } from '../runtime/create.js';
import type { RunRecord } from '../runtime/runs.js';
import { runIdOf } from '../runtime/steps.js';
import type { LogEntry, TriggerContext, TriggerDefinition } from '../types.js';
import { ActivityCounter } from './activity.js';

/** Options of {@link createTestRuntime}. */
export interface TestRuntimeOptions<Env = unknown> {
  /** Triggers by name, as for `createTriggerRuntime`. */
  triggers: Record<string, TriggerDefinition<any, any>>;
  /** `ctx.env`. Default `{}`. */
  env?: Env;
  /** The fake clock's start (a `Date` or epoch ms). Default the real time at creation. */
  now?: Date | number;
  /** Runtime name (the internal emit queue is `framework.emit.<name>`). Default `'test'`. */
  name?: string;
  /** Overrides of the platform limits. */
  limits?: Partial<TriggerLimits>;
  /**
   * The most timers `runUntilIdle` / `advanceTime` fire in one call before
   * failing with code `TEST_RUNTIME_RUNAWAY` (a run that re-arms for ever).
   * Default 10,000.
   */
  maxTimers?: number;
}

/** One run the test runtime saw: every attempt of one message, emit, dispatch or schedule occurrence. */
export interface TestRun {
  trigger: string;
  /**
   * The run's id, shared by its attempts: `queue:<queue>:<message id>` (a
   * batch: its first message), `emit:<queue>:<message id>`,
   * `schedule:<trigger>:<occurrence ISO>` or `dispatch:<random>`.
   */
  key: string;
  /** The event of the first attempt. */
  input: unknown;
  /** `running` until an attempt ends; then the last attempt's outcome. */
  status: 'running' | 'completed' | 'failed' | 'suspended' | 'canceled';
  /** The handler's return value once an attempt completed. */
  result?: unknown;
  /** The last failure's message. */
  error?: string;
  /** Attempts that ran (a suspended delivery that resumed counts again, as the handler ran again). */
  attempts: number;
  /** Log entries of every attempt, oldest first. */
  logs: LogEntry[];
}

/** A trigger runtime on a fake clock. */
export interface TestRuntime extends TriggerRuntime {
  /** The fake clock every timer of the runtime and its engine uses. */
  readonly clock: FakeClock;
  /** Every run so far, in the order their first attempt started. */
  readonly runs: readonly TestRun[];
  /** The runs of `trigger`. */
  runsOf(trigger: string): TestRun[];
  /** The fake time (epoch ms). */
  now(): number;
  /**
   * Starts the runtime (once), then runs everything that is due and every
   * pending delay (retry backoff, delayed and debounced messages, durable
   * sleeps and `waitForEvent` timeouts), moving the fake clock forward as far
   * as they need, until no work is left but future schedule occurrences.
   * Handlers awaiting real I/O are waited for.
   * @throws {TriggerError} code `TEST_RUNTIME_RUNAWAY` past `maxTimers` timers
   */
  runUntilIdle(): Promise<void>;
  /**
   * Starts the runtime (once), then moves the fake clock forward by
   * `duration` (`'25h'` or ms), firing every timer on the way in time order
   * (cron occurrences included) and letting the work each one starts settle.
   * @throws {TriggerError} code `TEST_RUNTIME_RUNAWAY` past `maxTimers` timers
   */
  advanceTime(duration: Duration | number): Promise<void>;
  /**
   * Waits for the handlers in progress, then stops the runtime at once
   * (`timeout` default `'0ms'`): work that only waits for the fake clock, such
   * as a retry's backoff, is aborted (`RUNTIME_STOPPED`) instead of waited for.
   */
  stop(options?: { timeout?: Duration }): Promise<void>;
}

/**
 * Creates a runtime for tests on the memory engine with a fake clock and
 * BullMQ's semantics: payloads are structured clones, deliveries count
 * attempts, failures end as dead letters, messages keep BullMQ's order, and
 * `emit` to a non-queue trigger is a stored message (so `ctx.step.sleep`,
 * `sleepUntil` and `waitForEvent` suspend it, as on BullMQ). Nothing waits in
 * real time: move the clock with `advanceTime` or `runUntilIdle`.
 *
 * @example
 * ```ts
 * import { defineTrigger } from '@framework/trigger';
 * import { createTestRuntime } from '@framework/trigger/testing';
 *
 * const t = createTestRuntime({
 *   now: new Date('2025-01-01T00:00:00Z'),
 *   triggers: {
 *     nightly: defineTrigger({ source: { type: 'scheduled', cron: '0 3 * * *' }, handle: () => 'done' }),
 *   },
 * });
 * await t.advanceTime('25h');
 * console.log(t.runsOf('nightly').map((run) => run.result)); // ['done']
 * await t.stop();
 * ```
 */
export function createTestRuntime<Env = unknown>(options: TestRuntimeOptions<Env>): TestRuntime {
  const clock = fakeClock(options.now ?? Date.now());
  const maxTimers = options.maxTimers ?? 10_000;
  const activity = new ActivityCounter();
  const runs: TestRun[] = [];
  const byKey = new Map<string, TestRun>();
  const byTrace = new Map<string, TestRun>();

  const observe = (name: string, definition: TriggerDefinition) =>
    withHandler(definition, async (event: unknown, ctx: TriggerContext) => {
      const key = runIdOf(ctx.step) ?? ctx.traceId;
      let run = byKey.get(`${name}|${key}`);
      if (!run) {
        run = { trigger: name, key, input: event, status: 'running', attempts: 0, logs: [] };
        byKey.set(`${name}|${key}`, run);
        runs.push(run);
      }
      run.attempts += 1;
      run.status = 'running';
      byTrace.set(`${name}|${ctx.traceId}`, run);
      return activity.around(async () => {
        const value: unknown = await definition.handle(event as never, ctx);
        run.result = value;
        return value;
      });
    });

  // BullMQ's semantics on the memory engine: emits to non-queue triggers travel as stored messages.
  const engine: TriggerEngine = { ...memoryEngine({ clock }), durable: true };
  const runtime = createTriggerRuntime({
    triggers: Object.fromEntries(Object.entries(options.triggers).map(([name, d]) => [name, observe(name, d)])),
    env: (options.env ?? {}) as Env,
    engine,
    clock,
    name: options.name ?? 'test',
    ...(options.limits ? { limits: options.limits } : {}),
  });
  runtime.onRun((record) => {
    const run = byTrace.get(`${record.trigger}|${record.traceId}`);
    if (!run) return;
    run.logs.push(...record.logs);
    run.status = statusOf(record);
    if (record.error !== undefined) run.error = record.error;
    if (run.status === 'completed') delete run.error;
  });

  let started: Promise<void> | undefined;
  const start = () => (started ??= runtime.start());

  /** Fires timers due at or before `limit` (or, unbounded, every non-schedule timer) until none is left. */
  async function fireUntil(limit: number | 'idle'): Promise<void> {
    let fired = 0;
    for (;;) {
      await activity.settle();
      const due = limit === 'idle' ? clock.nextDue('work') : limit;
      if (due === undefined || !clock.fireNext(due)) return;
      if (++fired > maxTimers) {
        throw new TriggerError(`the test runtime fired ${maxTimers} timers without going idle`, {
          code: 'TEST_RUNTIME_RUNAWAY',
          retryable: false,
        });
      }
    }
  }

  return Object.assign(Object.create(runtime) as TriggerRuntime, {
    clock,
    runs,
    runsOf: (trigger: string) => runs.filter((run) => run.trigger === trigger),
    now: () => clock.now().getTime(),
    async runUntilIdle() {
      await start();
      await fireUntil('idle');
    },
    async advanceTime(duration: Duration | number) {
      const ms = typeof duration === 'number' ? duration : parseDuration(duration, 'advanceTime');
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advanceTime: expected a duration ≥ 0, got ${ms}`);
      await start();
      const target = clock.now().getTime() + ms;
      await fireUntil(target);
      clock.moveTo(target);
      await activity.settle();
    },
    start,
    async stop(stopOptions: { timeout?: Duration } = {}) {
      // Runs in progress end first; what only waits on the fake clock (a retry's backoff) is cut at once.
      await activity.settle();
      await runtime.stop({ timeout: stopOptions.timeout ?? '0ms' });
    },
  }) as TestRuntime;
}

function statusOf(record: RunRecord): TestRun['status'] {
  if (record.status === 'ok') return 'completed';
  if (record.status === 'suspended') return 'suspended';
  if (record.status === 'canceled') return 'canceled';
  return 'failed';
}
