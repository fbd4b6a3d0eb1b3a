import type { Duration } from './duration.js';

/**
 * What an event must carry to match: a dotted path (or a list of them) whose
 * value in the event's data must equal the value at the same path of the
 * run's input (the message body or emitted payload), or a record of dotted
 * path → the JSON value it must equal.
 *
 * @example
 * ```ts
 * const byPath: EventMatch = 'orderId'; // event.data.orderId === input.orderId
 * const byValue: EventMatch = { 'order.id': 42, status: 'paid' };
 * ```
 */
export type EventMatch = string | readonly string[] | Readonly<Record<string, unknown>>;

/** An event as `ctx.step.waitForEvent` returns it: stored as JSON, so `data` is its JSON form. */
export interface StepEvent<D = unknown> {
  name: string;
  data: D;
  /** A random id given when it was sent. */
  id: string;
  /** When it was sent, epoch ms (on the runtime's clock). */
  ts: number;
}

/** Options of `ctx.step.waitForEvent`. */
export interface WaitForEventOptions {
  /** The event name, as given to `runtime.sendEvent(name, data)` (or `ctx.step.sendEvent`). */
  event: string;
  /** Which events count; default any event of that name. */
  match?: EventMatch;
  /** How long to wait; the step then returns `null`. */
  timeout: Duration;
}

/**
 * A `config.cancelOn` entry: an event that cancels a waiting or sleeping run
 * of the trigger (its message is removed and its steps forgotten).
 */
export interface CancelOn {
  event: string;
  /** Paths compared between the event's data and the run's input (see {@link EventMatch}). */
  match?: EventMatch;
}
