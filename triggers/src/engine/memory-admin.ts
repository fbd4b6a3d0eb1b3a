import type { MemoryQueue } from './memory-queue.js';
import type { QueueAdmin } from './run-types.js';

/** Pause, resume and clean of the memory engine's queues (in this process). */
export function memoryQueueAdmin(queueOf: (name: string) => MemoryQueue): QueueAdmin {
  return {
    async pause(queue) {
      queueOf(queue).setPaused(true);
    },
    async resume(queue) {
      queueOf(queue).setPaused(false);
    },
    async isPaused(queue) {
      return queueOf(queue).isPaused;
    },
    async clean(queue, state, ageMs, limit) {
      const target = queueOf(queue);
      const before = Date.now() - ageMs;
      return state === 'failed' ? target.cleanFailed(before, limit) : target.completed.removeBefore(before, limit);
    },
  };
}
