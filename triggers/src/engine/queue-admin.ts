import type { Queue } from 'bullmq';
import type { QueueAdmin } from './run-types.js';

/**
 * Queue administration on BullMQ: `Queue.pause` / `resume` (held in Redis, so every instance's workers
 * stop fetching) and `Queue.clean` by state and age.
 */
export function bullmqQueueAdmin(queueOf: (name: string) => Promise<Queue>): QueueAdmin {
  return {
    pause: async (queue) => (await queueOf(queue)).pause(),
    resume: async (queue) => (await queueOf(queue)).resume(),
    isPaused: async (queue) => (await queueOf(queue)).isPaused(),
    clean: async (queue, state, ageMs, limit) => (await queueOf(queue)).clean(ageMs, limit, state),
  };
}
