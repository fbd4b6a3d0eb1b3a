import { memoryQueueAdmin } from './memory-admin.js';
import { parseDuration, type Duration } from '../duration.js';
import { TriggerError } from '../errors.js';
import { randomHex } from '../trace.js';
import { clockNow, clockTimer, realClock, type EngineClock } from './clock.js';
import { MemoryQueue, storedMessage } from './memory-queue.js';
import { fireGuarded, memoryLock, skippedMessage } from './overlap.js';
import { catchUpTimes } from './catch-up.js';
import type { Timer } from './timers.js';
import type {
  EngineCallbacks,
  EnginePlan,
  EngineSchedule,
  FailedMessage,
  OutgoingMessage,
  TriggerEngine,
} from './types.js';

/** Options of {@link memoryEngine}. */
export interface MemoryEngineOptions {
  /**
   * Keep the process alive while timers (schedules, delayed messages, batch
   * windows) are pending. Default `false`: a server keeps the process alive
   * anyway; a worker-only process should pass `true`.
   */
  keepAlive?: boolean;
  /**
   * Where schedules, delays and rate-limit windows read the time. Default the wall clock; tests may pass
   * `scaledClock(...)` or the fake clock of `createTestRuntime`.
   */
  clock?: EngineClock;
  /**
   * The most messages one queue holds (ready, delayed and in flight); a send
   * beyond it rejects with code `QUEUE_FULL` (retryable), as a full Redis would
   * fail it. Default 10,000.
   */
  maxQueueLength?: number;
  /**
   * How long the id of an acked message stays taken, so `send({id})` with it adds nothing (BullMQ keeps
   * completed jobs as long). Default `'24h'`; `'0ms'` frees it at the ack.
   */
  idempotencyTtl?: Duration;
}

/**
 * The embedded engine: in-process queues with batching, delays, retries and
 * dead letters, and croner schedules on timers. State lives in memory and is
 * lost when the process exits. One instance per runtime.
 *
 * External sources (email, objectstore, sqldb) are fed by their own
 * listeners (`createSmtpIngress`, bucket notifications, the database outbox),
 * which work with any engine.
 *
 * @example
 * ```ts
 * const runtime = createTriggerRuntime({ triggers, env, engine: memoryEngine({ keepAlive: true }) });
 * ```
 */
export function memoryEngine(options: MemoryEngineOptions = {}): TriggerEngine {
  const keepAlive = options.keepAlive ?? false;
  const clock = options.clock ?? realClock;
  const maxQueueLength = options.maxQueueLength ?? 10_000;
  const queues = new Map<string, MemoryQueue>();
  const scheduleTimers = new Map<string, Timer>();
  const firing = new Set<Promise<void>>();
  let callbacks: EngineCallbacks | undefined;
  let plan: EnginePlan | undefined;
  let running = false;
  const overlapLock = memoryLock();
  /** The last occurrence that fired per schedule, for `catchUp` when the engine starts again. */
  const lastFired = new Map<string, Date>();

  const host = {
    keepAlive,
    idempotencyTtlMs: parseDuration(options.idempotencyTtl ?? '24h', 'memoryEngine({idempotencyTtl})'),
    now: () => clockNow(clock),
    timer: (at: number, fn: () => void) => clockTimer(clock, at, fn, keepAlive),
    deliver: (queue: string, batch: Parameters<EngineCallbacks['deliverBatch']>[1]) => {
      if (!callbacks) throw new Error('memory engine is not started');
      return callbacks.deliverBatch(queue, batch);
    },
    deadLetter: (toQueue: string, message: ReturnType<typeof storedMessage>) => {
      queueOf(toQueue).add({ ...message, deliveries: 0 });
    },
    onError: (queue: string, error: unknown) => {
      callbacks?.log({ level: 'error', message: `memory engine: delivery on queue "${queue}" failed`, error });
    },
  };

  function queueOf(name: string): MemoryQueue {
    let queue = queues.get(name);
    if (!queue) {
      queue = new MemoryQueue(name, host);
      queues.set(name, queue);
      if (running) queue.start(plan?.consumers.find((c) => c.queue === name));
    }
    return queue;
  }

  /** Runs one occurrence under the schedule's overlap policy and remembers it as the last that fired. */
  function fire(schedule: EngineSchedule, time: Date): Promise<void> {
    lastFired.set(schedule.trigger, time);
    return fireGuarded(
      schedule.overlap ?? 'skip',
      overlapLock,
      schedule.trigger,
      () => callbacks!.fireSchedule(schedule.trigger, time),
      {
        running: () => running,
        skipped: () =>
          callbacks?.log({ level: 'warn', message: skippedMessage(schedule.trigger, time), trigger: schedule.trigger }),
      },
    );
  }

  function arm(schedule: EngineSchedule, after: Date): void {
    const next = schedule.next(after);
    if (!next || !running) return;
    const timer = clockTimer(
      clock,
      next.getTime(),
      () => {
        if (!running) return;
        const run = fire(schedule, next).finally(() => firing.delete(run));
        firing.add(run);
        arm(schedule, next);
      },
      keepAlive,
      'schedule',
    );
    scheduleTimers.set(schedule.trigger, timer);
  }

  return {
    kind: 'memory',
    admin: memoryQueueAdmin(queueOf),
    async start(nextPlan, nextCallbacks) {
      if (running) return;
      plan = nextPlan;
      callbacks = nextCallbacks;
      running = true;
      for (const consumer of plan.consumers) queueOf(consumer.queue);
      for (const queue of queues.values()) queue.start(plan.consumers.find((c) => c.queue === queue.name));
      const now = clock.now();
      for (const schedule of plan.schedules) {
        // Occurrences missed while stopped (this engine remembers the last that fired), one after another.
        const missed = catchUpTimes(schedule, lastFired.get(schedule.trigger), now, nextCallbacks.log);
        if (missed.length > 0) {
          const run = missed
            .reduce(
              (previous, time) => previous.then(() => (running ? fire(schedule, time) : undefined)),
              Promise.resolve(),
            )
            .finally(() => firing.delete(run));
          firing.add(run);
        }
        arm(schedule, now);
      }
    },
    async stop() {
      running = false;
      for (const timer of scheduleTimers.values()) timer.cancel();
      scheduleTimers.clear();
      await Promise.all([...queues.values()].map((queue) => queue.stop()));
      await Promise.allSettled([...firing]);
    },
    async send(queue: string, messages: OutgoingMessage[]) {
      const target = queueOf(queue);
      if (target.pending + messages.length > maxQueueLength) {
        throw new TriggerError(
          `queue "${queue}" holds ${target.pending} messages; ${messages.length} more exceed maxQueueLength ${maxQueueLength}`,
          {
            code: 'QUEUE_FULL',
            retryable: true,
            context: { queue, pending: target.pending, maxQueueLength },
          },
        );
      }
      // Clone all bodies first, so an uncloneable one rejects the whole send.
      const stored = messages.map((message) =>
        storedMessage(
          message.id ?? randomHex(8),
          { ...message, body: cloneBody(queue, message.body) },
          clockNow(clock),
        ),
      );
      return stored.map((message, i) => {
        target.add(message, messages[i]!.delayMs ?? 0);
        return message.id;
      });
    },
    async wake(queue: string, id: string) {
      return queues.get(queue)?.wake(id) ?? false;
    },
    async cancel(queue: string, id: string) {
      return queues.get(queue)?.cancel(id) ?? false;
    },
    async replay(queue: string, select: (message: FailedMessage) => boolean, replayOptions = {}) {
      const ids = queues.get(queue)?.replay(select) ?? [];
      const dlq = replayOptions.deadLetterQueue === undefined ? undefined : queues.get(replayOptions.deadLetterQueue);
      for (const message of dlq?.takeDeadLetters(queue, select) ?? []) {
        const { deadLetter: _deadLetter, ...rest } = message;
        queueOf(queue).add({ ...rest, deliveries: 0 });
        ids.push(message.id);
      }
      return ids;
    },
    async discard(queue: string, select: (message: FailedMessage) => boolean, discardOptions = {}) {
      const ids = queues.get(queue)?.discard(select) ?? [];
      const dlq = discardOptions.deadLetterQueue === undefined ? undefined : queues.get(discardOptions.deadLetterQueue);
      for (const message of dlq?.takeDeadLetters(queue, select) ?? []) ids.push(message.id);
      return ids;
    },
    async inspect(queue: string, inspectOptions: { deadLetterQueue?: string; limit: number }) {
      const target = queues.get(queue);
      const failed = target?.failed() ?? [];
      const dlq = inspectOptions.deadLetterQueue === undefined ? undefined : queues.get(inspectOptions.deadLetterQueue);
      const deadLetters = dlq?.deadLettersFrom(queue) ?? [];
      return {
        waiting: target?.size ?? 0,
        inFlight: target?.inFlightMessages ?? 0,
        failed: failed.length,
        deadLettered: deadLetters.length,
        messages: [...failed, ...deadLetters].slice(0, inspectOptions.limit),
      };
    },
    async failed(queue: string): Promise<FailedMessage[]> {
      return queues.get(queue)?.failed() ?? [];
    },
  };
}

/**
 * A structured clone of a message body, as every delivery of a store that
 * serializes gets a copy. @throws {TriggerError} code `QUEUE_INVALID_BODY` (not retryable) for functions,
 * symbols and the like
 */
function cloneBody(queue: string, body: unknown): unknown {
  try {
    return structuredClone(body);
  } catch (error) {
    throw new TriggerError(
      `a message body for queue "${queue}" cannot be stored: ${error instanceof Error ? error.message : String(error)}`,
      {
        code: 'QUEUE_INVALID_BODY',
        retryable: false,
        cause: error,
      },
    );
  }
}
