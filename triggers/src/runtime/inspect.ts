import type { EngineQueueStats, FailedMessage, TriggerEngine } from '../engine/types.js';
import type { QueueSource } from '../types.js';
import { requireEngineMethod } from './producer.js';
import type { Registry } from './registry.js';

/** One consumed queue as `runtime.inspectQueues()` reports it. */
export interface QueueInspection extends EngineQueueStats {
  queue: string;
  /** The queue trigger consuming it. */
  trigger: string;
  deadLetterQueue?: string;
  /** Whether the queue is paused (`runtime.pause`); absent when the engine cannot tell. */
  paused?: boolean;
}

/** The stats of every queue a queue trigger consumes; an engine without `inspect` reports only its failed messages. */
export function inspectQueues(engine: TriggerEngine, registry: Registry, limit: number): Promise<QueueInspection[]> {
  return Promise.all(
    registry.ofType('queue').map(async ({ name, definition }) => {
      const source = definition.source as QueueSource;
      const dlq = source.deadLetterQueue;
      const stats = engine.inspect
        ? await engine.inspect(source.name, { limit, ...(dlq ? { deadLetterQueue: dlq } : {}) })
        : fallbackStats(await engine.failed(source.name), limit);
      const paused = engine.admin ? await engine.admin.isPaused(source.name) : undefined;
      return {
        queue: source.name,
        trigger: name,
        ...(dlq ? { deadLetterQueue: dlq } : {}),
        ...(paused === undefined ? {} : { paused }),
        ...stats,
      };
    }),
  );
}

function fallbackStats(failed: FailedMessage[], limit: number): EngineQueueStats {
  return { waiting: null, inFlight: null, failed: failed.length, deadLettered: 0, messages: failed.slice(0, limit) };
}

/** Deletes the failed and dead-lettered messages of `queue` that `select` picks. */
export function discardMessages(
  engine: TriggerEngine,
  registry: Registry,
  queue: string,
  select: (message: FailedMessage) => boolean,
): Promise<string[]> {
  const dlq = (registry.consumerOf(queue)?.definition.source as QueueSource | undefined)?.deadLetterQueue;
  return requireEngineMethod(engine, 'discard')(queue, select, dlq ? { deadLetterQueue: dlq } : {});
}
