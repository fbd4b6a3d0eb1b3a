import { isNonRetryable, TriggerError } from '../errors.js';
import { randomHex, type TraceParent } from '../trace.js';
import { clockSleep } from '../engine/clock.js';
import { messageOf, runAttempt } from './attempt.js';
import { backoffDelay } from './backoff.js';
import type { RuntimeCore } from './core.js';
import type { RegisteredTrigger } from './registry.js';
import { throttleDelay } from './throttle.js';
import { finishSteps } from './step-records.js';

/** Options of a dispatch. */
export interface DispatchOptions {
  /** Override `config.retries` for this dispatch. */
  retries?: number;
  /** Trace to continue. */
  parent?: TraceParent | undefined;
  /** The run's durable-steps id (e.g. a schedule occurrence); default one per dispatch, shared by its retries. */
  runId?: string;
  /**
   * Called with the `settled` promise of each attempt that was reported while
   * its handler still executes (past `timeout + gracePeriod`), e.g. to hold
   * a shared slot until it really ends.
   */
  onAbandoned?: (settled: Promise<void>) => void;
  /** The run's id for `runtime.cancel(id)` (an emit's run id). */
  cancelId?: string;
}

/**
 * Runs a trigger with retries: after a failure it waits `config.retryDelay` (its backoff for that attempt)
 * and tries again, up to `config.retries` more times, unless the handler called
 * `noRetry()`, threw a non-retryable TriggerError, or the runtime is stopping.
 * Waits first while `config.throttle` refuses the run. Resolves with the handler's return value; rejects
 * with the last error.
 */
export async function runWithRetries(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  event: unknown,
  options: DispatchOptions = {},
): Promise<unknown> {
  const { config } = trigger.definition;
  const retries = options.retries ?? config.retries;
  let parent = options.parent;
  const runId = options.runId ?? `dispatch:${randomHex(16)}`;
  const runIds = options.cancelId === undefined ? [] : [options.cancelId];
  for (let attempt = 1; ; attempt++) {
    for (
      let wait = await throttleDelay(core, trigger, event);
      wait > 0;
      wait = await throttleDelay(core, trigger, event)
    )
      if (!(await clockSleep(core.clock, wait, core.stopSignal))) throw stoppedError();
    const result = await runAttempt(core, trigger, event, {
      attempt,
      parent,
      steps: { store: core.steps, runId },
      runIds,
    });
    if (result.settled) options.onAbandoned?.(result.settled);
    if (result.ok) {
      await finishSteps(core.steps, runId);
      return result.value;
    }
    parent ??= result.position;
    const final = result.noRetry || isNonRetryable(result.error) || attempt > retries || core.stopSignal.aborted;
    if (final) throw result.error;
    if (config.observability.metrics) {
      core.instruments.retries.add(1, {
        'trigger.name': trigger.name,
        'trigger.source': trigger.definition.source.type,
      });
    }
    const delayMs = backoffDelay(config.backoff, attempt);
    core.logger.log({
      level: 'warn',
      message: `"${trigger.name}" attempt ${attempt} failed (${messageOf(result.error)}); retrying in ${delayMs} ms`,
      trigger: trigger.name,
      traceId: result.position.traceId,
    });
    if (!(await clockSleep(core.clock, delayMs, core.stopSignal))) throw result.error;
  }
}

/** {@link runWithRetries} without its result. */
export async function dispatchWithRetries(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  event: unknown,
  options: DispatchOptions = {},
): Promise<void> {
  await runWithRetries(core, trigger, event, options);
}

/** The error used to cancel work when `stop()` reaches its deadline. */
export function stoppedError(): TriggerError {
  return new TriggerError('The trigger runtime stopped before the work finished', {
    code: 'RUNTIME_STOPPED',
    retryable: true,
  });
}
