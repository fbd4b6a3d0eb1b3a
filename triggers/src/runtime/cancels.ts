import { TriggerError } from '../errors.js';

/** The abort reason of a run cancelled with `runtime.cancel(id)`: not retryable. */
export function canceledError(id: string): TriggerError {
  return new TriggerError(`run ${id} was cancelled`, { code: 'RUN_CANCELED', retryable: false, context: { id } });
}

/** What a cancel aborts: an AbortController, or an attempt's run. */
export interface Abortable {
  abort(reason?: unknown): void;
}

/**
 * An attempt in flight as the registry holds it: what aborts it, the ids of the runs (message ids) it serves,
 * and the links of the registry's list, which only the registry sets.
 */
export interface RunningAttempt extends Abortable {
  readonly runIds: readonly string[];
  previousRunning: RunningAttempt | undefined;
  nextRunning: RunningAttempt | undefined;
}

/**
 * The attempts running in this process, so that `runtime.cancel(id)` can abort those of a run and `stop()`
 * reaching its deadline can abort them all.
 *
 * A doubly linked list through the attempts themselves rather than a Map or Set: a hash table that gains and
 * loses an entry per run is rehashed over and over, and V8 keeps each replaced table linked to its successor
 * with the entries it held. Once one of those tables is promoted to the old generation, it keeps the runs in
 * flight it saw alive through young-generation collections, so they are promoted too (measured at 20,000 runs
 * a second: 1.3 MB promoted per scavenge, scavenges three times longer). A cancel by id walks the list; it is
 * rare, and the list holds only what runs now.
 */
export class CancelRegistry {
  private head: RunningAttempt | undefined = undefined;

  /** Registers an attempt until {@link remove}; an attempt registered already is left as it is. */
  add(attempt: RunningAttempt): void {
    if (attempt.previousRunning !== undefined || this.head === attempt) return;
    attempt.nextRunning = this.head;
    if (this.head) this.head.previousRunning = attempt;
    this.head = attempt;
  }

  /** Forgets an attempt {@link add} registered (nothing when it is not registered). */
  remove(attempt: RunningAttempt): void {
    const { previousRunning, nextRunning } = attempt;
    if (previousRunning) previousRunning.nextRunning = nextRunning;
    else if (this.head === attempt) this.head = nextRunning;
    else return;
    if (nextRunning) nextRunning.previousRunning = previousRunning;
    attempt.previousRunning = undefined;
    attempt.nextRunning = undefined;
  }

  /** Aborts the attempts of run `id` in this process with `RUN_CANCELED`; `false` when none runs here. */
  abort(id: string): boolean {
    const matching = this.attempts().filter((attempt) => attempt.runIds.includes(id));
    for (const attempt of matching) attempt.abort(canceledError(id));
    return matching.length > 0;
  }

  /** Aborts every attempt running here with `reason` (`stop()` reached its deadline). */
  abortAll(reason: unknown): void {
    for (const attempt of this.attempts()) attempt.abort(reason);
  }

  /** Whether an attempt of run `id` runs in this process. */
  has(id: string): boolean {
    return this.attempts().some((attempt) => attempt.runIds.includes(id));
  }

  /** The attempts registered now (a copy: aborting one may remove it). */
  private attempts(): RunningAttempt[] {
    const all: RunningAttempt[] = [];
    for (let attempt = this.head; attempt; attempt = attempt.nextRunning) all.push(attempt);
    return all;
  }
}
