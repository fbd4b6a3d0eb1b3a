import type { ScriptClient } from './redis-scripts.js';

/** How long a mark of a waiting instance lasts: a blocked fetch returns within 1 s and marks again. */
const MARK_MS = 2_000;
/** How long an answer of `contended()` is reused before Redis is asked again. */
const FRESH_MS = 100;

const MARK = `return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])`;
const READ = `return redis.call('GET', KEYS[1])`;

const defined = new WeakSet<ScriptClient>();

/** What {@link slotContention} needs: BullMQ's script client of a queue, and the key of its mark. */
export interface ContentionHost {
  /** This instance, as its marks name it. */
  instance: string;
  clientOf(queue: string): Promise<ScriptClient>;
  keyOf(queue: string): string;
  onError(message: string, error: unknown): void;
}

/** Who waits for a slot of a queue under its global concurrency, shared by the instances through Redis. */
export interface SlotContention {
  /** Marks that this instance waits for a slot of `queue` (for `MARK_MS`); fire and forget. */
  waiting(queue: string): void;
  /**
   * Whether another instance marked `queue` in the last `MARK_MS`: from an answer at most `FRESH_MS` old
   * (`false` before the first), asking Redis again in the background when it is older.
   */
  contended(queue: string): boolean;
}

/**
 * Tells acks under a global concurrency whether to hand their freed slot to their own instance: an instance
 * whose fetch loop blocks for lack of a job marks the queue (`SET … PX`, one command per blocked fetch, so at
 * most one a second per idle queue), and the others read the mark at most every `FRESH_MS` while they settle
 * (one `GET` per queue per `FRESH_MS`, whatever the message rate).
 */
export function slotContention(host: ContentionHost): SlotContention {
  const known = new Map<string, { contended: boolean; at: number; asking: boolean }>();
  const client = async (queue: string) => {
    const redis = await host.clientOf(queue);
    if (!defined.has(redis)) {
      redis.defineCommand('frameworkSlotWaiting', { lua: MARK, numberOfKeys: 1 });
      redis.defineCommand('frameworkSlotWaiter', { lua: READ, numberOfKeys: 1 });
      defined.add(redis);
    }
    return redis;
  };
  const ask = async (queue: string, entry: { contended: boolean; at: number; asking: boolean }) => {
    try {
      const waiter = await (await client(queue)).runCommand('frameworkSlotWaiter', [host.keyOf(queue)]);
      entry.contended = waiter !== null && waiter !== undefined && String(waiter) !== host.instance;
      entry.at = Date.now();
    } catch (error) {
      host.onError(`bullmq engine: could not read who waits for queue "${queue}"`, error);
    } finally {
      entry.asking = false;
    }
  };
  return {
    waiting(queue) {
      void client(queue)
        .then((redis) => redis.runCommand('frameworkSlotWaiting', [host.keyOf(queue), host.instance, MARK_MS]))
        .catch((error: unknown) => host.onError(`bullmq engine: could not mark queue "${queue}" waited for`, error));
    },
    contended(queue) {
      let entry = known.get(queue);
      if (!entry) known.set(queue, (entry = { contended: false, at: 0, asking: false }));
      if (!entry.asking && Date.now() - entry.at >= FRESH_MS) {
        entry.asking = true;
        void ask(queue, entry);
      }
      return entry.contended;
    },
  };
}
