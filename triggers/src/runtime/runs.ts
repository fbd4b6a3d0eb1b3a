import type { LogEntry, TailOutcome, TriggerSourceType } from '../types.js';

/**
 * One finished handler attempt, as `runtime.onRun` listeners receive it.
 * Times are `Date`s; `durationMs` is milliseconds.
 */
export interface RunRecord {
  /** Unique per attempt within the runtime's process (`run-<n>`, counting up). Runs of one trace share `traceId`. */
  id: string;
  trigger: string;
  source: TriggerSourceType;
  /** 1-based attempt number. */
  attempt: number;
  traceId: string;
  /** `ok`, `exception`, `timeout` or `canceled` (as in tail logs), or `suspended` (a durable step sleeps). */
  status: TailOutcome | 'suspended';
  startedAt: Date;
  durationMs: number;
  /** The error's message when the attempt failed. */
  error?: string;
  /** The log lines the handler wrote during this attempt (`ctx` logs and runtime notes). */
  logs: LogEntry[];
  /**
   * The durable-steps id of the run this attempt belongs to (shared by its attempts): pass it to
   * `runtime.getSteps(stepsId)`. Absent where steps are unavailable (a queue batch of several messages).
   */
  stepsId?: string;
}

/** Receives finished attempts. */
export type RunListener = (run: RunRecord) => void;

/**
 * Fans finished attempts out to listeners. With no listener, {@link active}
 * is `false` and callers skip building records: the hook costs one check per attempt.
 */
export class RunHub {
  private readonly listeners = new Set<RunListener>();
  private sequence = 0;

  /** A new run id. */
  nextId(): string {
    return `run-${++this.sequence}`;
  }

  /** Whether anybody listens. */
  get active(): boolean {
    return this.listeners.size > 0;
  }

  /** Adds a listener; returns a function that removes it. */
  subscribe(listener: RunListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(run: RunRecord): void {
    for (const listener of this.listeners) {
      try {
        listener(run);
      } catch {
        // A listener's failure must not affect triggers.
      }
    }
  }
}
