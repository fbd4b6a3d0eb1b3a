import { TriggerError } from '../errors.js';
import { WorkList, type Listed } from '../work-list.js';

/** The abort reason of a run cancelled with `runtime.cancel(id)`: not retryable. */
export function canceledError(id: string): TriggerError {
  return new TriggerError(`run ${id} was cancelled`, { code: 'RUN_CANCELED', retryable: false, context: { id } });
}

/** What a cancel aborts: an AbortController, or an attempt's run. */
export interface Abortable {
  abort(reason?: unknown): void;
}

/** An attempt in flight as the registry holds it: what aborts it and the ids of the runs (message ids) it serves. */
export interface RunningAttempt extends Abortable, Listed<RunningAttempt> {
  readonly runIds: readonly string[];
}

/**
 * The attempts running in this process, so that `runtime.cancel(id)` can abort those of a run and `stop()`
 * reaching its deadline can abort them all. A {@link WorkList}, not a Map by id: a cancel walks it (it is
 * rare, and the list holds only what runs now).
 */
export class CancelRegistry {
  private readonly running = new WorkList<RunningAttempt>();

  /** Registers an attempt until {@link remove}. */
  add(attempt: RunningAttempt): void {
    this.running.add(attempt);
  }

  /** Forgets an attempt {@link add} registered. */
  remove(attempt: RunningAttempt): void {
    this.running.remove(attempt);
  }

  /** Aborts the attempts of run `id` in this process with `RUN_CANCELED`; `false` when none runs here. */
  abort(id: string): boolean {
    const matching = this.running.entries().filter((attempt) => attempt.runIds.includes(id));
    for (const attempt of matching) attempt.abort(canceledError(id));
    return matching.length > 0;
  }

  /** Aborts every attempt running here with `reason` (`stop()` reached its deadline). */
  abortAll(reason: unknown): void {
    for (const attempt of this.running.entries()) attempt.abort(reason);
  }

  /** Whether an attempt of run `id` runs in this process. */
  has(id: string): boolean {
    return this.running.entries().some((attempt) => attempt.runIds.includes(id));
  }
}
