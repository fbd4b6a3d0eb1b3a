import { TriggerError, TriggerTimeoutError } from '../errors.js';
import { Deadlines, type Due } from './deadlines.js';

/** How a run is bounded: its trigger's name, timeout and grace period, and how to end it at once (sandbox). */
export interface RunBounds {
  name: string;
  /** Ms before the run's signal aborts with `TriggerTimeoutError`. */
  timeoutMs: number;
  /** The timeouts of the trigger's runs in flight (one timer for all), expiring `timeoutMs` after they start. */
  deadlines: Deadlines<BoundedRun>;
  /** Ms to wait for the run to settle after its signal aborted for a timeout or a cancel. */
  graceMs: number;
  /** Ends the run at once (a sandboxed run: terminates its worker). */
  terminate?: (() => Promise<void>) | undefined;
}

/** What a bounded run resolves with. */
export interface Bounded {
  value?: unknown;
  error?: unknown;
  /** The run outlived its timeout and grace period and still executes. */
  unsettled: boolean;
  /** Present when the run was reported before it settled: resolves once it does. */
  settled?: Promise<void>;
}

/**
 * One attempt's run, bounded by its timeout, `runtime.cancel(id)` and `stop()` reaching its deadline: the abort
 * state (with the handler's `ctx.signal` built only when read: the first `abort(reason)` wins, as with an
 * AbortController, and a signal built later starts aborted with that reason) and the race between the run
 * and an abort, in one object per attempt (no bounds object, race object nor abort closure of its own).
 */
export class BoundedRun implements Due<BoundedRun> {
  aborted = false;
  /** The handler called `ctx.noRetry()`. */
  noRetry = false;
  reason: unknown = undefined;
  private controller: AbortController | undefined = undefined;
  /** Settles the race (`race()`), until it is settled. */
  private resolve: ((outcome: Bounded | Promise<Bounded>) => void) | undefined = undefined;
  /** Its place among the trigger's timeouts (`bounds.deadlines`), from `arm()` until the race settles. */
  dueAt = 0;
  earlier: BoundedRun | undefined = undefined;
  later: BoundedRun | undefined = undefined;
  /** What the handler returned (usually its promise). */
  private started: unknown = undefined;

  /** Set before the run starts (a sandboxed run adds `terminate` once its attempt exists). */
  constructor(public bounds: RunBounds) {}

  /** The handler's `ctx.signal`, created on first read. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    // AbortController's own default reason when none is given.
    this.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    this.controller?.abort(this.reason);
    if (this.resolve) this.settleAborted();
  }

  /** Starts the timeout; call right before the handler starts. */
  arm(): void {
    this.bounds.deadlines.add(this);
  }

  /** The timeout passed before the run settled (called by `bounds.deadlines`). */
  expire(): void {
    this.abort(new TriggerTimeoutError(this.bounds.name, this.bounds.timeoutMs));
  }

  /**
   * Resolves with the run's outcome once `started` (what the handler returned) settles, or, when the run
   * aborts first, as {@link afterAbort} decides. Never rejects.
   */
  race(started: unknown): Promise<Bounded> {
    this.started = started;
    return new Promise<Bounded>((resolve) => {
      this.resolve = resolve;
      if (this.aborted) return this.settleAborted();
      void Promise.resolve(started).then(
        (value: unknown) => this.finish({ value, error: undefined, unsettled: false }),
        (caught: unknown) => this.finish({ ...ranError(caught), unsettled: false }),
      );
    });
  }

  private finish(outcome: Bounded | Promise<Bounded>): void {
    const resolve = this.resolve;
    if (!resolve) return;
    this.resolve = undefined;
    this.bounds.deadlines.remove(this);
    resolve(outcome);
  }

  private settleAborted(): void {
    this.finish(afterAbort(Promise.resolve(this.started).then(ranValue, ranError), this));
  }
}

/**
 * Runs `fn` until it settles, bounded by `run`: after `timeoutMs` it aborts `run` and then keeps waiting for
 * the run to settle, at most `graceMs` more, so the caller never starts a retry while the previous run still
 * executes. Resolves with the handler's error, the abort reason when it was aborted (at once when the reason
 * is not the timeout, i.e. `stop()` reached its deadline), or `TRIGGER_TIMEOUT_UNSETTLED` with
 * `unsettled: true` when the run outlived the cap. With `terminate` (a sandboxed run), a run that outlives
 * the cap, or is still running when `stop()` reaches its deadline, is terminated instead:
 * `TRIGGER_TIMEOUT_TERMINATED` (or the stop reason), settled at once. When it resolves before the run
 * settled, `settled` resolves once the run does. Never rejects.
 */
export function runBounded(run: BoundedRun, fn: () => unknown): Promise<Bounded> {
  run.arm();
  // The handler starts now (a synchronous throw is its error), not a microtask later.
  let started: unknown;
  try {
    started = fn();
  } catch (caught) {
    started = Promise.reject(caught as Error);
  }
  return run.race(started);
}

/**
 * {@link runBounded} for a handler called as `definition.handle(event, ctx)`, the common case: no closure
 * around the call.
 */
export function runHandlerBounded<E, C>(
  run: BoundedRun,
  definition: { handle(event: E, ctx: C): unknown },
  event: E,
  ctx: C,
): Promise<Bounded> {
  run.arm();
  let started: unknown;
  try {
    started = definition.handle(event, ctx);
  } catch (caught) {
    started = Promise.reject(caught as Error);
  }
  return run.race(started);
}

/** A handler run's outcome: its value, or what it threw. */
type Ran = { value: unknown; error: unknown };

/** The outcome of a handler that returned (module functions: no closures per run). */
const ranValue = (value: unknown): Ran => ({ value, error: undefined });
/** The outcome of a handler that threw or rejected. */
const ranError = (caught: unknown): Ran => ({
  value: undefined,
  error: caught ?? new Error('handler threw a nullish value'),
});

/** The rest of a bounded run once it aborted before the run settled. */
async function afterAbort(running: Promise<Ran>, run: BoundedRun): Promise<Bounded> {
  const { timeoutMs, graceMs, name, terminate } = run.bounds;
  const reason: unknown = run.reason;
  // stop() reaching its deadline is the caller's own cap: report at once. A timeout or a cancel waits for
  // the grace period.
  const settledLater = running.then(() => undefined);
  if (!(reason instanceof TriggerTimeoutError) && !isCancel(reason)) {
    if (!terminate) return { error: reason, unsettled: false, settled: settledLater };
    await terminate();
    return { error: reason, unsettled: false };
  }
  let grace: ReturnType<typeof setTimeout> | undefined;
  const capped = new Promise<'capped'>((resolve) => {
    grace = setTimeout(() => resolve('capped'), graceMs);
  });
  const settled = await Promise.race([running, capped]);
  clearTimeout(grace);
  if (settled !== 'capped') return { error: reason, unsettled: false };
  if (terminate) {
    await terminate();
    if (isCancel(reason)) return { error: reason, unsettled: false };
    return {
      error: new TriggerError(
        `Trigger "${name}" did not settle within ${graceMs} ms after its signal was aborted; its worker was terminated`,
        {
          code: 'TRIGGER_TIMEOUT_TERMINATED',
          retryable: true,
          context: { trigger: name, timeoutMs, gracePeriodMs: graceMs },
          cause: reason,
        },
      ),
      unsettled: false,
    };
  }
  return {
    error: new TriggerError(`Trigger "${name}" did not settle within ${graceMs} ms after its signal was aborted`, {
      code: 'TRIGGER_TIMEOUT_UNSETTLED',
      retryable: true,
      context: { trigger: name, timeoutMs, gracePeriodMs: graceMs },
      cause: reason,
    }),
    unsettled: true,
    settled: settledLater,
  };
}

/** Whether `reason` is the abort reason of `runtime.cancel(id)`. */
export function isCancel(reason: unknown): boolean {
  return reason instanceof TriggerError && reason.code === 'RUN_CANCELED';
}
