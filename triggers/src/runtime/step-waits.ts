import type { StepStore } from '../engine/types.js';
import type { EventWaiter, EventWaits } from '../engine/wait-types.js';

/**
 * In-process {@link EventWaits} (the memory engine's): waiters live in a map
 * and a step result goes to `steps`, the runtime's step store.
 */
export function memoryEventWaits(steps: StepStore): EventWaits {
  const byEvent = new Map<string, Map<string, EventWaiter>>();
  return {
    async add(event, waiter) {
      const waiters = byEvent.get(event) ?? new Map<string, EventWaiter>();
      waiters.set(waiter.key, structuredClone(waiter));
      byEvent.set(event, waiters);
    },
    async list(event) {
      return [...(byEvent.get(event)?.values() ?? [])].map((waiter) => structuredClone(waiter));
    },
    async take(event, key, step) {
      const waiters = byEvent.get(event);
      if (!waiters?.delete(key)) return false;
      if (waiters.size === 0) byEvent.delete(event);
      if (!step) return true;
      // A step that already holds a result (an earlier event) keeps it.
      if ((await steps.load(step.runId))[step.stepId]?.startsWith('{"v":')) return false;
      await steps.save(step.runId, step.stepId, step.value);
      return true;
    },
  };
}
