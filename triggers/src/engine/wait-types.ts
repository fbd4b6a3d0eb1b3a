/**
 * Where runs suspended by `ctx.step.waitForEvent` (and runs registered for a
 * trigger's `cancelOn`) wait for an event sent with `runtime.sendEvent`.
 *
 * @module
 */

/** A run waiting for an event. */
export interface EventWaiter {
  /** Unique per run and step: `<runId>|<stepId>` (a wait) or `<runId>|cancel:<n>` (a `cancelOn` entry). */
  key: string;
  /** `wait`: resumes the run with the event; `cancel`: cancels the run. */
  kind: 'wait' | 'cancel';
  /** The run's durable-steps id. */
  runId: string;
  /** The `waitForEvent` step id (`wait` only). */
  stepId?: string;
  trigger: string;
  /** The queue and id of the stored message that carries the run. */
  queue: string;
  messageId: string;
  /** Dotted paths into the event's data → the JSON values they must equal. */
  match: Record<string, unknown>;
  /** Epoch ms: the end of a wait; for a `cancel` entry, when the run wakes up. */
  until: number;
  /** Epoch ms: when the `waitForEvent` step began (`wait` only), kept in the step's details. */
  since?: number;
}

/** Storage of {@link EventWaiter}s per event name. */
export interface EventWaits {
  /** Adds (or replaces, by `key`) a waiter for `event`. */
  add(event: string, waiter: EventWaiter): Promise<void>;
  /** The waiters of `event`. */
  list(event: string): Promise<EventWaiter[]>;
  /**
   * Removes the waiter `key` of `event` atomically; only when it was still
   * there and the step holds no result yet (`{"v":…}`), stores `step.value` as
   * the result of `step.stepId` in the run's steps. Resolves whether this call
   * stored it (so exactly one of an event and a timeout, or of two events, wins).
   */
  take(event: string, key: string, step?: { runId: string; stepId: string; value: string }): Promise<boolean>;
}
