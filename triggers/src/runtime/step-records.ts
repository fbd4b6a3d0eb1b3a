/**
 * How durable steps are stored (one JSON text per step id) and read back for
 * inspection (`runtime.getSteps`, `runtime.getRun(id).steps`, the dashboard).
 *
 * @module
 */
import type { StepStore } from '../engine/types.js';

/** What kind of `ctx.step` call made a step. */
export type TriggerStepKind = 'run' | 'sleep' | 'sleepUntil' | 'waitForEvent' | 'invoke' | 'sendEvent';

/**
 * Where a step stands: `completed` (its output is stored), `failed` (its last call threw; the run's next
 * attempt calls it again), `sleeping` (a sleep not over yet), `waiting` (a `waitForEvent` not answered yet).
 */
export type TriggerStepStatus = 'completed' | 'failed' | 'sleeping' | 'waiting';

/**
 * One durable step of a run, as stored by the engine (the memory engine's store, or a Redis hash on BullMQ).
 * Times are epoch milliseconds on the runtime's clock; `durationMs` is `endedAt - startedAt` (milliseconds).
 */
export interface TriggerStep {
  /** The step id given to `ctx.step.*`. */
  id: string;
  /** `undefined` for steps stored by an older version, which kept no details. */
  kind?: TriggerStepKind;
  status: TriggerStepStatus;
  /** When the step was first called (epoch ms). */
  startedAt?: number;
  /**
   * When it ended (epoch ms): its function returned or last threw, its sleep is over (the wake-up time), or
   * its event arrived or its wait timed out.
   */
  endedAt?: number;
  durationMs?: number;
  /** How many times its function was called (`run`, `invoke`, `sendEvent`); 1 for the other kinds. */
  attempts: number;
  /**
   * The stored output (its JSON form): the function's return value, the event of a `waitForEvent` (`null`
   * when it timed out), the wake-up time of a sleep (epoch ms). Absent until completed.
   */
  output?: unknown;
  /** The message of the last error of a `failed` step. */
  error?: string;
}

/**
 * Details kept beside a step's value: kind, start, end (epoch ms), attempts, last error, and `o`, how many of the
 * run's steps were stored when this one was first called (its place among steps that started in the same ms).
 */
export interface StoredStepMeta {
  k: TriggerStepKind;
  s: number;
  o?: number;
  e?: number;
  a?: number;
  err?: string;
}

/** A stored step: a result `{v}`, a pending suspension `{wait}`, or only details `{m}` (its function threw). */
export type StoredStep<T = unknown> =
  | { v: T; m?: StoredStepMeta }
  | { wait: { until: number; event?: string }; m?: StoredStepMeta }
  | { m: StoredStepMeta };

/** Parses a stored step; `undefined` for text that is not one. */
export function parseStoredStep(text: string | undefined): StoredStep | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as StoredStep) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a stored step holds its result. */
export function hasValue<T>(step: StoredStep<T> | undefined): step is { v: T; m?: StoredStepMeta } {
  return step !== undefined && 'v' in step;
}

/** The steps of a run in the order they were first called (stored order for steps without details). */
export function stepsOf(entries: Record<string, string>, now: number): TriggerStep[] {
  const steps: { step: TriggerStep; order: number; index: number }[] = [];
  for (const [id, text] of Object.entries(entries)) {
    const stored = parseStoredStep(text);
    if (stored) steps.push({ step: stepOf(id, stored, now), order: stored.m?.o ?? Infinity, index: steps.length });
  }
  // Ties on the start (same millisecond) go by the order of first call, then by the store's order.
  const before = (x: number, y: number) => (x === y ? 0 : x < y ? -1 : 1);
  return steps
    .sort(
      (a, b) =>
        before(a.step.startedAt ?? Infinity, b.step.startedAt ?? Infinity) ||
        before(a.order, b.order) ||
        a.index - b.index,
    )
    .map(({ step }) => step);
}

function stepOf(id: string, stored: StoredStep, now: number): TriggerStep {
  const meta = stored.m;
  const kind = meta?.k;
  const step: TriggerStep = { id, status: 'completed', attempts: meta?.a ?? 1 };
  if (kind) step.kind = kind;
  if (meta) step.startedAt = meta.s;
  let ended = meta?.e;
  if ('wait' in stored) {
    step.status = 'waiting';
    ended = undefined;
  } else if ('v' in stored) {
    step.output = stored.v;
    if (kind === 'sleep' || kind === 'sleepUntil') {
      const until = Number(stored.v);
      if (now < until) {
        step.status = 'sleeping';
        ended = undefined;
      } else ended = until;
    }
  } else {
    step.status = 'failed';
    if (meta?.err !== undefined) step.error = meta.err;
  }
  if (ended !== undefined) {
    step.endedAt = ended;
    if (step.startedAt !== undefined) step.durationMs = Math.max(0, ended - step.startedAt);
  }
  return step;
}

/** How many finished runs' steps the in-process store keeps for inspection. */
export const KEPT_FINISHED_RUNS = 1000;

/**
 * Ends a run that succeeded: its steps stay readable through {@link readSteps} (the store's `finish`, e.g. kept
 * a while under another key) but a later run with the same id starts afresh. Stores without `finish` forget them.
 */
export async function finishSteps(store: StepStore, runId: string): Promise<void> {
  if (store.finish) await store.finish(runId);
  else await store.clear(runId);
}

/** The stored steps of a run: running, suspended, or finished and still kept. */
export async function readSteps(store: StepStore, runId: string, now: number): Promise<TriggerStep[]> {
  const live = await store.load(runId);
  if (Object.keys(live).length > 0 || !store.loadFinished) return stepsOf(live, now);
  return stepsOf(await store.loadFinished(runId), now);
}
