/**
 * `toHaveRun(trigger, { times?, with? })`: the attempts a trigger runtime reported through `runtime.onRun`, as a
 * run recorder kept them.
 * @module
 */
import type { RunRecord, TriggerRuntime } from '@framework/trigger';
import type { MatcherState } from 'vitest';
import type { MatcherResult } from './defaults.js';
import { recorderOf, type RunRecorder } from '../runs/recorder.js';

/** Options of `toHaveRun`. */
export interface HaveRunOptions {
  /** Exactly this many matching attempts. Default: at least one. */
  times?: number;
  /**
   * Fields every counted attempt has (vitest equality, asymmetric matchers allowed), e.g. `{ status: 'ok' }` or
   * `{ error: expect.stringContaining('timeout') }`. A run record holds no event payload.
   */
  with?: { [K in keyof RunRecord]?: unknown };
}

const isRecorder = (value: unknown): value is RunRecorder =>
  typeof value === 'object' && value !== null && Array.isArray((value as RunRecorder).runs) && 'runtime' in value;

const isRuntime = (value: unknown): value is TriggerRuntime =>
  typeof value === 'object' && value !== null && typeof (value as TriggerRuntime).onRun === 'function';

function recorderFrom(received: unknown): RunRecorder {
  if (isRecorder(received)) return received;
  const runtime = isRuntime(received) ? received : (received as { runtime?: unknown } | null)?.runtime;
  if (!isRuntime(runtime))
    throw new TypeError('toHaveRun: expected a run recorder, a trigger runtime or a test context with one');
  const recorder = recorderOf(runtime);
  if (!recorder)
    throw new TypeError(
      'toHaveRun: nothing records the runs of this runtime; call recordRuns(runtime) before they happen (a test context does it for its runtime)',
    );
  return recorder;
}

const times = (n: number) => `${n} ${n === 1 ? 'time' : 'times'}`;

/** The matcher. Await `runtime.drain()` first when the runs happen in the background. */
export function toHaveRun(
  this: MatcherState,
  received: unknown,
  trigger: string,
  options: HaveRunOptions = {},
): MatcherResult {
  if (typeof trigger !== 'string' || trigger === '') throw new TypeError('toHaveRun: trigger must be a trigger name');
  if (options.times !== undefined && !(Number.isInteger(options.times) && options.times >= 0))
    throw new TypeError('toHaveRun: times must be a whole number');
  const runs = recorderFrom(received).of(trigger);
  const fields = Object.entries(options.with ?? {});
  const matching = runs.filter((run) =>
    fields.every(([key, value]) => this.equals(run[key as keyof RunRecord], value, this.customTesters)),
  );
  const pass = options.times === undefined ? matching.length > 0 : matching.length === options.times;
  const wanted = `${options.times === undefined ? 'at least once' : times(options.times)}${fields.length ? ` with ${this.utils.stringify(options.with, undefined, { min: true })}` : ''}`;
  const seen = runs.length
    ? `its attempts: ${runs.map((r) => `#${r.attempt} ${r.status}`).join(', ')}`
    : 'it has no recorded attempt';
  return {
    pass,
    message: () =>
      `expected trigger ${JSON.stringify(trigger)} ${pass ? 'not ' : ''}to have run ${wanted}, but ${matching.length} ${matching.length === 1 ? 'attempt matches' : 'attempts match'}; ${seen}`,
  };
}
