import type { FleetSlot } from '../engine/run-types.js';
import type { RuntimeCore } from './core.js';
import type { RegisteredTrigger } from './registry.js';

/** Lease of a fleet-wide slot; renewed every third while the run lasts. */
const SLOT_LEASE_MS = 30_000;
/** First and last pause between tries for a slot held elsewhere. */
const FIRST_PAUSE_MS = 10;
const MAX_PAUSE_MS = 200;

/** How {@link withFleetSlots} and its slow path are called. */
type RunHoldingSlots = <T extends { settled?: Promise<void> }>(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  key: string | undefined,
  fn: () => Promise<T>,
) => Promise<T>;

/**
 * Runs `fn` holding the fleet-wide slots of a run on an engine with shared limits (BullMQ): one of
 * `concurrency` slots of the trigger (non-queue triggers whose concurrency is not scoped to the instance; a queue
 * trigger's limit is its queue's global concurrency) and the slot of its `concurrencyKey`, so across every instance no more than `concurrency`
 * runs, and one run per key, execute at once. Without shared limits (memory engine) it just runs `fn`.
 */
export const withFleetSlots: RunHoldingSlots = (core, trigger, key, fn) => {
  // Most runs hold no fleet slot (a queue trigger without a key): `fn` runs without an async frame of ours.
  if (!holdsFleetSlots(core, trigger, key)) return fn();
  return withSlotsOf(core, trigger, key, fn);
};

/** Whether a run of `trigger` with `key` holds fleet-wide slots (see {@link withFleetSlots}). */
export function holdsFleetSlots(core: RuntimeCore, trigger: RegisteredTrigger, key: string | undefined): boolean {
  return !!core.fleet && (key !== undefined || fleetConcurrencyOf(trigger) !== undefined);
}

/**
 * The fleet-wide limit a run of `trigger` holds a slot of: its `concurrency` unless scoped to the instance. None
 * for a queue trigger, whose limit is its queue's global concurrency.
 */
function fleetConcurrencyOf(trigger: RegisteredTrigger): number | undefined {
  const { config, source } = trigger.definition;
  return source.type === 'queue' || config.concurrencyScope === 'instance' ? undefined : config.concurrency;
}

/** {@link withFleetSlots} once the run holds a slot: acquires them, runs `fn`, releases them when the run ends. */
const withSlotsOf: RunHoldingSlots = async (core, trigger, key, fn) => {
  const wanted: Array<[string, number]> = [];
  const fleetConcurrency = fleetConcurrencyOf(trigger);
  if (fleetConcurrency !== undefined) wanted.push([`concurrency:${trigger.name}`, fleetConcurrency]);
  if (key !== undefined) wanted.push([`key:${trigger.name}:${key}`, 1]);
  const slots: FleetSlot[] = [];
  for (const [name, limit] of wanted) {
    const slot = await acquire(core, name, limit);
    if (slot) slots.push(slot);
  }
  const release = () => Promise.all(slots.map((slot) => slot.release())).then(() => undefined);
  const result = await fn().catch(async (error: unknown) => {
    await release();
    throw error;
  });
  // A run past its hard cap keeps its slots until it really ends.
  if (result.settled) void result.settled.then(release);
  else await release();
  return result;
};

/** Waits for a slot; `undefined` once the runtime's stop deadline passed (the run then goes on without it). */
async function acquire(core: RuntimeCore, name: string, limit: number): Promise<FleetSlot | undefined> {
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    const slot = await core.fleet!.tryAcquire(name, limit, SLOT_LEASE_MS);
    if (slot) return slot;
    if (core.stopSignal.aborted) return undefined;
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(MAX_PAUSE_MS, pause * 2);
  }
}
