import type { StepStore } from '../engine/types.js';
import { parseDuration, type Duration } from '../duration.js';
import { TriggerError } from '../errors.js';
import type { TriggerSteps } from '../types.js';

/**
 * Where the steps of a run are kept: its store and its id (and whether the
 * run can be suspended by `sleep`, i.e. it is a stored message), or why steps
 * are unavailable.
 */
export type StepScope = { store: StepStore; runId: string; suspendable?: boolean } | { unavailable: string };

/**
 * Thrown by `ctx.step.sleep` to suspend a run: the runtime puts its message
 * back, delayed until `wakeAt`, without counting a delivery. Code
 * `STEP_SLEEPING`. Handlers should let it propagate.
 */
export class StepSleep extends TriggerError {
  constructor(readonly wakeAt: number) {
    super(`the run sleeps until ${new Date(wakeAt).toISOString()}`, { code: 'STEP_SLEEPING', retryable: true });
    this.name = 'StepSleep';
  }
}

/**
 * `ctx.step` of one attempt: each `run(id, fn)` result is stored under the
 * run's id in the engine's store as JSON, so a later attempt of the same run
 * (after a throw or a crash) returns it without calling `fn` again.
 */
export function createSteps(scope: StepScope): TriggerSteps {
  let memo: Promise<Map<string, string>> | undefined;
  const load = (store: StepStore, runId: string) =>
    (memo ??= store.load(runId).then((entries) => new Map(Object.entries(entries))));
  const stepsOf = async (method: string, id: string) => {
    if ('unavailable' in scope)
      throw new TriggerError(`ctx.step is unavailable: ${scope.unavailable}`, {
        code: 'STEPS_UNAVAILABLE',
        retryable: false,
      });
    if (typeof id !== 'string' || id === '')
      throw new TriggerError(`ctx.step.${method} needs a non-empty step id`, {
        code: 'INVALID_STEP',
        retryable: false,
      });
    return { held: scope, steps: await load(scope.store, scope.runId) };
  };
  return Object.freeze({
    async sleep(id: string, duration: Duration): Promise<void> {
      const ms = parseDuration(duration, 'ctx.step.sleep');
      const { held, steps } = await stepsOf('sleep', id);
      if (!held.suspendable) {
        throw new TriggerError(
          'ctx.step.sleep needs a run that is a stored message (a queue message with batchSize 1, or a durable emit)',
          {
            code: 'STEPS_UNAVAILABLE',
            retryable: false,
          },
        );
      }
      const saved = steps.get(id);
      let wakeAt = saved === undefined ? undefined : (JSON.parse(saved) as { v: number }).v;
      if (wakeAt === undefined) {
        wakeAt = Date.now() + ms;
        const text = JSON.stringify({ v: wakeAt });
        await held.store.save(held.runId, id, text);
        steps.set(id, text);
      }
      if (Date.now() < wakeAt) throw new StepSleep(wakeAt);
    },
    async run<T>(id: string, fn: () => T | Promise<T>): Promise<Awaited<T>> {
      const { held, steps } = await stepsOf('run', id);
      const saved = steps.get(id);
      if (saved !== undefined) return (JSON.parse(saved) as { v: Awaited<T> }).v;
      const value = await fn();
      // The stored (JSON) form is what every attempt gets, the first included.
      const text = JSON.stringify({ v: value === undefined ? null : value });
      await held.store.save(held.runId, id, text);
      steps.set(id, text);
      return (JSON.parse(text) as { v: Awaited<T> }).v;
    },
  });
}

/** An in-process {@link StepStore}. */
export function memoryStepStore(): StepStore {
  const runs = new Map<string, Map<string, string>>();
  return {
    async load(runId) {
      return Object.fromEntries(runs.get(runId) ?? []);
    },
    async save(runId, stepId, value) {
      const steps = runs.get(runId) ?? new Map<string, string>();
      steps.set(stepId, value);
      runs.set(runId, steps);
    },
    async clear(runId) {
      runs.delete(runId);
    },
  };
}
