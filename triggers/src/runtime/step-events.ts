import { clockNow, type EngineClock } from '../engine/clock.js';
import type { StepStore, TriggerEngine } from '../engine/types.js';
import type { EventWaiter, EventWaits } from '../engine/wait-types.js';
import { randomHex } from '../trace.js';
import type { StepEvent } from '../types.js';
import type { Logger } from './logger.js';
import { matches } from './step-match.js';
import type { StoredStep } from './step-records.js';

/** What {@link sendStepEvent} did. */
export interface EventDelivery {
  /** Runs waiting in `ctx.step.waitForEvent` that the event resumed. */
  resumed: number;
  /** Waiting or sleeping runs the event cancelled (`cancelOn`). */
  canceled: number;
}

/** What event delivery needs from the runtime. */
export interface EventDeliveryHost {
  readonly clock: EngineClock;
  readonly waits: EventWaits;
  readonly steps: StepStore;
  readonly logger: Logger;
  readonly engine: Pick<TriggerEngine, 'wake' | 'cancel'>;
}

/** A `cancelOn` registration older than this past its wake-up belongs to a run that went on: dropped. */
const STALE_CANCEL_MS = 60_000;

/**
 * Offers event `name` with `data` to the runs waiting for it: each matching
 * `waitForEvent` (still within its timeout) gets the event as its step result
 * and its message is woken at once; each matching `cancelOn` registration
 * cancels its suspended run (its message removed, its steps forgotten). Every
 * waiter is taken atomically, so with several instances each run is resumed
 * or cancelled once.
 */
export async function sendStepEvent(host: EventDeliveryHost, name: string, data: unknown): Promise<EventDelivery> {
  const now = clockNow(host.clock);
  const event: StepEvent = {
    name,
    data: JSON.parse(JSON.stringify(data ?? null)) as unknown,
    id: randomHex(8),
    ts: now,
  };
  const delivery: EventDelivery = { resumed: 0, canceled: 0 };
  const waiters = await host.waits.list(name);
  // Cancellations first: a run both waiting for and cancelled by the event is cancelled.
  waiters.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'cancel' ? -1 : 1));
  for (const waiter of waiters) {
    if (waiter.kind === 'cancel') {
      if (waiter.until + STALE_CANCEL_MS < now) await host.waits.take(name, waiter.key);
      else if (matches(waiter.match, event.data) && (await host.waits.take(name, waiter.key)))
        delivery.canceled += (await cancelRun(host, name, waiter)) ? 1 : 0;
      continue;
    }
    if (waiter.until <= now || !matches(waiter.match, event.data)) continue;
    const value = JSON.stringify({
      v: event,
      m: { k: 'waitForEvent', s: waiter.since ?? now, e: now },
    } satisfies StoredStep);
    if (!(await host.waits.take(name, waiter.key, { runId: waiter.runId, stepId: waiter.stepId!, value }))) continue;
    delivery.resumed += 1;
    await wake(host, waiter);
  }
  return delivery;
}

/**
 * Moves the run's delayed message to ready. The run may still be finishing
 * the attempt that registered the wait (not delayed yet): tried again a few
 * times; if it never is, the run still gets the event when its timeout wakes it.
 */
async function wake(host: EventDeliveryHost, waiter: EventWaiter): Promise<void> {
  if (!host.engine.wake) return;
  for (let tries = 0; tries < 20; tries++) {
    if (await host.engine.wake(waiter.queue, waiter.messageId).catch(() => false)) return;
    // Real time, whatever the runtime's clock: this waits for another process (or task), not for business time.
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function cancelRun(host: EventDeliveryHost, event: string, waiter: EventWaiter): Promise<boolean> {
  const removed = (await host.engine.cancel?.(waiter.queue, waiter.messageId).catch(() => false)) ?? false;
  if (!removed) return false;
  await host.steps.clear(waiter.runId);
  host.logger.log({
    level: 'info',
    message: `run ${waiter.messageId} of "${waiter.trigger}" cancelled by event "${event}" (cancelOn)`,
    trigger: waiter.trigger,
    data: { event, queue: waiter.queue, messageId: waiter.messageId },
  });
  return true;
}
