/**
 * Records the finished handler attempts of a trigger runtime (`runtime.onRun`), so a test can ask which triggers
 * ran, how often and how. The runtime keeps no history itself: only attempts after {@link recordRuns} are seen.
 * @module
 */
import type { RunRecord, TriggerRuntime } from '@framework/trigger';

/** The attempts seen since recording started, oldest first. */
export interface RunRecorder {
  /** The recorded runtime. */
  readonly runtime: TriggerRuntime;
  /** Every recorded attempt, oldest first. */
  readonly runs: readonly RunRecord[];
  /** The attempts of trigger `name`, oldest first. */
  of(name: string): RunRecord[];
  /** Forgets the recorded attempts (recording goes on). */
  clear(): void;
  /** Stops recording. Idempotent. */
  stop(): void;
}

const recorders = new WeakMap<TriggerRuntime, RunRecorder>();

/**
 * Starts recording the attempts of `runtime`; the newest recorder of a runtime is the one the `toHaveRun`
 * matcher reads when given the runtime. `createTestContext` records its app's runtime (`ctx.runs`).
 *
 * @example
 * ```ts
 * const runs = recordRuns(runtime);
 * await runtime.dispatch('welcome', { userId: 'u1' });
 * runs.of('welcome'); // [{ trigger: 'welcome', status: 'ok', attempt: 1, … }]
 * ```
 */
export function recordRuns(runtime: TriggerRuntime): RunRecorder {
  const runs: RunRecord[] = [];
  const unsubscribe = runtime.onRun((run) => void runs.push(run));
  const recorder: RunRecorder = {
    runtime,
    runs,
    of: (name) => runs.filter((run) => run.trigger === name),
    clear: () => void runs.splice(0),
    stop: () => {
      unsubscribe();
      if (recorders.get(runtime) === recorder) recorders.delete(runtime);
    },
  };
  recorders.set(runtime, recorder);
  return recorder;
}

/** The recorder `recordRuns` last started on `runtime`, if still recording. */
export function recorderOf(runtime: TriggerRuntime): RunRecorder | undefined {
  return recorders.get(runtime);
}
