import { clockNow, realClock, type EngineClock } from '../engine/clock.js';
import type { StepStore } from '../engine/types.js';
import type { EventWaits } from '../engine/wait-types.js';
import { parseDuration, type Duration } from '../duration.js';
import { TriggerError } from '../errors.js';
import type { CancelOn, StepEvent, TriggerSteps, WaitForEventOptions } from '../types.js';
import { matchValues, registerCancelOn } from './step-match.js';
import {
  hasValue,
  KEPT_FINISHED_RUNS,
  parseStoredStep,
  type StoredStep,
  type StoredStepMeta,
  type TriggerStepKind,
} from './step-records.js';

/** The stored message that carries a run, so a suspended run can be woken or cancelled. */
export interface StepMessage {
  trigger: string;
  queue: string;
  id: string;
  /** The run's input (the message body, the emitted payload), for `match` paths. */
  input: unknown;
}

/**
 * Where the steps of a run are kept: its store and its id (and whether the
 * run can be suspended, i.e. it is a stored message, and which one), or why
 * steps are unavailable.
 */
export type StepScope =
  { store: StepStore; runId: string; suspendable?: boolean; message?: StepMessage } | { unavailable: string };

/** What steps need from the runtime beyond their scope. */
export interface StepHost {
  readonly clock: EngineClock;
  /** Runs waiting for events (`waitForEvent`, `cancelOn`). */
  readonly waits?: EventWaits;
  /** The `cancelOn` entries of a trigger. */
  cancelOn?(trigger: string): readonly CancelOn[];
  /** Runs trigger `name` on `data` with its retries; resolves with its handler's return value. */
  invoke?(name: string, data: unknown): Promise<unknown>;
  /** Delivers an event to the runs waiting for it (`runtime.sendEvent`). */
  sendEvent?(name: string, data: unknown): Promise<unknown>;
}

/**
 * Thrown by `ctx.step.sleep`, `sleepUntil` and `waitForEvent` to suspend a
 * run: the runtime puts its message back, delayed until `wakeAt` (the
 * earliest wake-up of the attempt's suspended steps), without counting a
 * delivery. Code `STEP_SLEEPING`. Handlers should let it propagate.
 */
export class StepSleep extends TriggerError {
  constructor(private readonly earliest: () => number) {
    super(`the run sleeps until ${new Date(earliest()).toISOString()}`, { code: 'STEP_SLEEPING', retryable: true });
    this.name = 'StepSleep';
  }

  /** Epoch ms (on the runtime's clock) at which the run is due again. */
  get wakeAt(): number {
    return this.earliest();
  }
}

const unavailable = (message: string) => new TriggerError(message, { code: 'STEPS_UNAVAILABLE', retryable: false });

/**
 * `ctx.step` of one attempt: each step's result is stored under its id in the
 * run's steps (JSON), so a later attempt of the same run (after a throw, a
 * crash or a suspension) returns it without doing the work again. Steps may run
 * in parallel (`Promise.all`): each is kept under its own id, and a suspension
 * waits for its siblings' registrations, then wakes the run at the earliest of them.
 */
export function createSteps(scope: StepScope, host: StepHost = { clock: realClock }): TriggerSteps {
  let memo: Promise<Map<string, string>> | undefined;
  let earliest = Number.POSITIVE_INFINITY;
  const registrations = new Set<Promise<unknown>>();
  const load = (store: StepStore, runId: string) =>
    (memo ??= store.load(runId).then((entries) => new Map(Object.entries(entries))));
  const now = () => clockNow(host.clock);

  const stepsOf = async (method: string, id: string) => {
    if ('unavailable' in scope) throw unavailable(`ctx.step is unavailable: ${scope.unavailable}`);
    if (typeof id !== 'string' || id === '')
      throw new TriggerError(`ctx.step.${method} needs a non-empty step id`, {
        code: 'INVALID_STEP',
        retryable: false,
      });
    return { held: scope, steps: await load(scope.store, scope.runId) };
  };
  const suspendable = async (method: string, id: string) => {
    const found = await stepsOf(method, id);
    if (!found.held.suspendable)
      throw unavailable(
        `ctx.step.${method} needs a run that is a stored message (a queue message with source.batchSize: 1, or an emit on a durable engine such as BullMQ or createTestRuntime's)`,
      );
    return found;
  };
  const save = async (
    held: { store: StepStore; runId: string },
    steps: Map<string, string>,
    id: string,
    value: unknown,
  ) => {
    const text = JSON.stringify(value);
    await held.store.save(held.runId, id, text);
    steps.set(id, text);
  };
  /** Suspends the run until `until` (or earlier, for a sibling step), after every sibling registered. */
  const suspend = async (
    until: number,
    held: { message?: StepMessage | undefined },
    registration?: Promise<unknown>,
  ) => {
    earliest = Math.min(earliest, until);
    if (registration) registrations.add(registration);
    if (held.message && host.waits && host.cancelOn) {
      const entries = host.cancelOn(held.message.trigger);
      if (entries.length > 0 && 'runId' in scope)
        registrations.add(registerCancelOn(host.waits, entries, scope.runId, held.message, earliest));
    }
    for (let size = -1; size !== registrations.size;) {
      size = registrations.size;
      await Promise.all(registrations);
    }
    throw new StepSleep(() => earliest);
  };

  const sleepUntilTime = async (
    method: 'sleep' | 'sleepUntil',
    id: string,
    wakeAt: (start: number) => number,
  ): Promise<void> => {
    const { held, steps } = await suspendable(method, id);
    const saved = parseStoredStep(steps.get(id));
    let until = hasValue(saved) ? Number(saved.v) : undefined;
    if (until === undefined) {
      const start = now();
      until = wakeAt(start);
      await save(held, steps, id, { v: until, m: { k: method, s: start, o: steps.size } } satisfies StoredStep);
    }
    if (now() < until) await suspend(until, held);
  };

  const runAs = async <T>(kind: TriggerStepKind, id: string, fn: () => T | Promise<T>): Promise<Awaited<T>> => {
    const { held, steps } = await stepsOf(kind, id);
    const saved = parseStoredStep(steps.get(id));
    if (hasValue(saved)) return saved.v as Awaited<T>;
    // A step whose function threw in an earlier attempt keeps its first start and counts its calls.
    const meta: StoredStepMeta = {
      k: kind,
      s: saved?.m?.s ?? now(),
      o: saved?.m?.o ?? steps.size,
      a: (saved?.m?.a ?? 0) + 1,
    };
    let value: Awaited<T>;
    try {
      value = await fn();
    } catch (error) {
      const err = error instanceof Error ? error.message : String(error);
      await save(held, steps, id, { m: { ...meta, e: now(), err: err.slice(0, 1000) } } satisfies StoredStep).catch(
        () => {},
      );
      throw error;
    }
    // The stored (JSON) form is what every attempt gets, the first included.
    await save(held, steps, id, { v: value === undefined ? null : value, m: { ...meta, e: now() } });
    return (parseStoredStep(steps.get(id)) as { v: Awaited<T> }).v;
  };
  const run = <T>(id: string, fn: () => T | Promise<T>): Promise<Awaited<T>> => runAs('run', id, fn);

  const api = {
    async sleep(id: string, duration: Duration): Promise<void> {
      const ms = parseDuration(duration, 'ctx.step.sleep');
      await sleepUntilTime('sleep', id, (start) => start + ms);
    },
    async sleepUntil(id: string, time: Date | string | number): Promise<void> {
      const at = new Date(time).getTime();
      if (Number.isNaN(at))
        throw new TriggerError(`ctx.step.sleepUntil: expected a date, got ${String(time)}`, {
          code: 'INVALID_STEP',
          retryable: false,
        });
      await sleepUntilTime('sleepUntil', id, () => at);
    },
    run,
    async invoke<T = unknown>(id: string, trigger: string, data: unknown): Promise<T> {
      const invoke = host.invoke;
      if (!invoke) throw unavailable('ctx.step.invoke needs the trigger runtime');
      return (await runAs('invoke', id, () => invoke(trigger, data))) as T;
    },
    async sendEvent(id: string, name: string, data: unknown): Promise<void> {
      const send = host.sendEvent;
      if (!send) throw unavailable('ctx.step.sendEvent needs the trigger runtime');
      await runAs('sendEvent', id, async () => void (await send(name, data)));
    },
    async waitForEvent<D = unknown>(id: string, options: WaitForEventOptions): Promise<StepEvent<D> | null> {
      const { held, steps } = await suspendable('waitForEvent', id);
      const waits = host.waits;
      if (!waits || !held.message) throw unavailable('ctx.step.waitForEvent needs the trigger runtime');
      const timeoutMs = parseDuration(options.timeout, 'ctx.step.waitForEvent({timeout})');
      const saved = parseStoredStep(steps.get(id)) as StoredStep<StepEvent<D> | null> | undefined;
      if (hasValue(saved)) return saved.v;
      const startedAt = saved?.m?.s ?? now();
      const key = `${held.runId}|${id}`;
      const match = matchValues(options.match, held.message.input, 'ctx.step.waitForEvent({match})');
      const message = held.message;
      const register = (until: number) =>
        waits.add(options.event, {
          key,
          kind: 'wait',
          runId: held.runId,
          stepId: id,
          trigger: message.trigger,
          queue: message.queue,
          messageId: message.id,
          match,
          until,
          since: startedAt,
        });
      if (saved && 'wait' in saved) {
        // Added again (same key): the process may have died between storing the wait and adding its waiter.
        if (now() < saved.wait.until) return suspend(saved.wait.until, held, register(saved.wait.until));
        // Timed out, unless an event took the waiter first: then its result is stored.
        const timedOut: StoredStep = {
          v: null,
          m: { k: 'waitForEvent', s: startedAt, ...(saved.m?.o === undefined ? {} : { o: saved.m.o }), e: now() },
        };
        if (await waits.take(options.event, key, { runId: held.runId, stepId: id, value: JSON.stringify(timedOut) }))
          return null;
        const stored = parseStoredStep((await held.store.load(held.runId))[id]) as StoredStep<StepEvent<D> | null>;
        return hasValue(stored) ? stored.v : null;
      }
      const until = now() + timeoutMs;
      await save(held, steps, id, {
        wait: { until, event: options.event },
        m: { k: 'waitForEvent', s: startedAt, o: steps.size },
      } satisfies StoredStep);
      return suspend(until, held, register(until));
    },
  } satisfies TriggerSteps;
  if ('runId' in scope) Object.defineProperty(api, RUN_ID, { value: scope.runId });
  return Object.freeze(api);
}

const RUN_ID = Symbol('runId');

/** The durable-steps id of the run `ctx.step` belongs to (shared by all its attempts), for test tools. */
export function runIdOf(steps: TriggerSteps): string | undefined {
  return (steps as { [RUN_ID]?: string })[RUN_ID];
}

/** An in-process {@link StepStore}; it keeps the steps of the last {@link KEPT_FINISHED_RUNS} finished runs. */
export function memoryStepStore(): StepStore {
  const runs = new Map<string, Map<string, string>>();
  const finished = new Map<string, Map<string, string>>();
  return {
    async finish(runId) {
      const steps = runs.get(runId);
      runs.delete(runId);
      finished.delete(runId);
      if (!steps) return;
      finished.set(runId, steps);
      if (finished.size > KEPT_FINISHED_RUNS) finished.delete(finished.keys().next().value!);
    },
    async loadFinished(runId) {
      return Object.fromEntries(finished.get(runId) ?? []);
    },
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
