import type { ConnectionOptions, Job, KeepJobs, Queue, Worker } from 'bullmq';
import { parseDuration, type Duration } from '../duration.js';
import { randomHex } from '../trace.js';
import { realClock, type EngineClock } from './clock.js';
import {
  CONNECT_TIMEOUT_MS,
  engineUnavailable,
  openConnection,
  withDeadline,
  type BullmqConnection,
  type OpenedConnection,
} from './bullmq-connection.js';
import { BatchConsumer, type MessageData } from './bullmq-consumer.js';
import { slotContention } from './bullmq-contention.js';
import { Scheduler } from './bullmq-schedules.js';
import { redisLock, redisStepStore, type ScriptClient } from './redis-scripts.js';
import { redisEventWaits } from './bullmq-waits.js';
import { redisScheduleHistory } from './schedule-history.js';
import { bullmqRuns, resultOf } from './bullmq-runs.js';
import { redisFleetLimits, wakeWorkers } from './fleet-limits.js';
import { bullmqQueueAdmin } from './queue-admin.js';

/** BullMQ's own client wrapper of a queue: the same Lua script API over node-redis and ioredis. */
function scriptClientOf(queue: Queue): Promise<ScriptClient> {
  return (queue.getBackend() as unknown as { connection: { client: Promise<ScriptClient> } }).connection.client;
}
import type {
  CompletedMessage,
  EngineCallbacks,
  EngineConsumer,
  EnginePlan,
  FailedMessage,
  OutgoingMessage,
  TriggerEngine,
} from './types.js';
import { importPeer } from '../optional-peer.js';
import { TriggerDefinitionError } from '../errors.js';

/** Options of {@link bullmqEngine}. */
export interface BullmqEngineOptions {
  /**
   * Redis: a `redis://` / `rediss://` URL (opens a node-redis client, needs the
   * `redis` package; closed on `stop()`), or anything BullMQ's `connection`
   * accepts, such as a connected node-redis or ioredis client (left open).
   */
  connection: BullmqConnection;
  /** Prefix of every Redis key. Default `'framework'`. Instances that share queues share the prefix. */
  prefix?: string;
  /** How long a fetched job stays locked without renewal; locks are renewed every half. Default `'30s'`. */
  lockDuration?: Duration;
  /** How often stalled jobs (of a process that died) are looked for and redelivered. Default `'30s'`. */
  stalledInterval?: Duration;
  /** Where schedules read the time. Default the wall clock; tests may pass `scaledClock(...)`. */
  clock?: EngineClock;
  /**
   * At most this many completed jobs kept per queue, besides `idempotencyTtl` (`removeOnComplete: { age, count }`:
   * a job goes at whichever comes first), newest first, so that `inspect()` (and the dashboard) can list recent
   * deliveries from BullMQ's own job data, across processes and restarts; also a cap on the Redis memory kept
   * jobs take (see `idempotencyTtl`). Default `0`: no count bound, only the age. Note: while BullMQ keeps a
   * completed job, its id stays taken, so a `send` with that `id` is deduplicated for as long (BullMQ's job id
   * semantics), not only until it is acked.
   */
  keepCompleted?: number;
  /**
   * How long a completed job (its result and its id) is kept: `send({id})` with that id adds nothing for
   * as long, and `runtime.getRun(id)` reads its result (`removeOnComplete: {age}`). Default `'24h'`.
   *
   * Redis holds every job completed in that window: about 1.2 KB each with a small body and result (measured
   * on Redis 7 with the benchmark's `{ n }` bodies), so at 100 messages a second the default keeps 8.6 million
   * jobs, about 10 GB. Size Redis for it, or shorten it to the deduplication window you need (`'1h'`), or
   * `'0s'` (no deduplication after the ack, no `getRun` result).
   */
  idempotencyTtl?: Duration;
  /**
   * Retention of failed messages (`removeOnFail`): `age` and/or `count` (the newest kept). Default: kept
   * until replayed, discarded or cleaned.
   */
  keepFailed?: { age?: Duration; count?: number };
}

type BullmqModule = typeof import('bullmq');

/** BullMQ's `removeOnComplete` / `removeOnFail` for an age (ms) and a count; `true` removes at once. */
function retention(ageMs: number | undefined, count: number | undefined): boolean | KeepJobs {
  if (!ageMs && count === undefined) return true;
  if (!ageMs) return { count: count! };
  return count === undefined ? { age: Math.ceil(ageMs / 1000) } : { age: Math.ceil(ageMs / 1000), count };
}

/**
 * The engine for many instances: queues and schedules live in Redis through
 * BullMQ, so any number of processes with the same `prefix` share them, with
 * at-least-once delivery.
 *
 * - **Queues** are BullMQ queues of the same name. Consumers fetch jobs by hand
 *   into batches of up to `batchSize` within `batchTimeout`; each message then
 *   settles on its own: ack → completed (removed), retry → delayed by the
 *   retry delay, deadLetter → added to the dead-letter queue (data keeps
 *   `deadLetter: {from, reason}`) or, without one, moved to BullMQ's failed
 *   set, which `failed(queue)` lists. `attempts` is BullMQ's `attemptsStarted`,
 *   so a message of a process that died (found stalled after `lockDuration`)
 *   comes back with `attempts` + 1. Bodies are stored as JSON.
 * - **Schedules**: occurrences are computed with croner in the trigger's
 *   timezone and added as delayed jobs of the queue `framework.schedules.<runtime>`
 *   with the id `trigger:occurrence` (ISO 8601, minute precision:
 *   `daily-cleanup:2025-06-01T07:00Z`), so every instance adds the same job
 *   and exactly one instance runs it. Finished occurrences are kept for a day
 *   so a late instance cannot add one again.
 *
 * @throws TriggerError code `ENGINE_UNAVAILABLE` from `start` when Redis does not answer within 5 s; code
 * `MISSING_DEPENDENCY` when `bullmq` (or, for a URL, `redis`) is not installed. `send` rejects while Redis is down.
 * @example
 * ```ts
 * import { bullmqEngine, createTriggerRuntime } from '@framework/trigger';
 *
 * const runtime = createTriggerRuntime({
 *   triggers,
 *   env,
 *   engine: bullmqEngine({ connection: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: 'myapp' }),
 * });
 * await runtime.start();
 * ```
 */
export function bullmqEngine(options: BullmqEngineOptions): TriggerEngine {
  const prefix = options.prefix ?? 'framework';
  const keepCompleted = options.keepCompleted ?? 0;
  if (!Number.isInteger(keepCompleted) || keepCompleted < 0)
    throw new TriggerDefinitionError(
      'bullmqEngine({keepCompleted})',
      `expected a whole number ≥ 0, got ${keepCompleted}`,
    );
  const idempotencyTtlMs = parseDuration(options.idempotencyTtl ?? '24h', 'bullmqEngine({idempotencyTtl})');
  const removeOnComplete = retention(idempotencyTtlMs, keepCompleted === 0 ? undefined : keepCompleted);
  const removeOnFail = options.keepFailed
    ? retention(
        options.keepFailed.age === undefined ? undefined : parseDuration(options.keepFailed.age, 'keepFailed.age'),
        options.keepFailed.count,
      )
    : false;
  const lockDurationMs = parseDuration(options.lockDuration ?? '30s', 'bullmqEngine({lockDuration})');
  const stalledIntervalMs = parseDuration(options.stalledInterval ?? '30s', 'bullmqEngine({stalledInterval})');
  const clock = options.clock ?? realClock;
  const instance = `${process.pid}-${randomHex(4)}`;
  const queues = new Map<string, Queue>();
  const workers: Worker[] = [];
  const consumers: BatchConsumer[] = [];
  let scheduler: Scheduler | undefined;
  let callbacks: EngineCallbacks | undefined;
  let opened: Promise<{ bullmq: BullmqModule; connection: OpenedConnection }> | undefined;
  let running = false;

  const open = () =>
    (opened ??= (async () => {
      const [bullmq, connection] = await Promise.all([
        importPeer('bullmq', () => import('bullmq')),
        openConnection(options.connection),
      ]);
      return { bullmq, connection };
    })());

  /**
   * Fails fast when Redis does not answer: a queue the plan uses must be ready within 5 s, else
   * `ENGINE_UNAVAILABLE` (BullMQ itself would retry for ever). The half-open connection is dropped, so a later
   * `start()` tries again.
   */
  async function reachable(plan: EnginePlan): Promise<void> {
    const probe =
      plan.consumers[0]?.queue ?? (plan.schedules.length > 0 ? `framework.schedules.${plan.runtime}` : undefined);
    if (probe === undefined) return;
    try {
      await withDeadline(
        queueOf(probe).then((queue) => queue.waitUntilReady()),
        CONNECT_TIMEOUT_MS,
        () => engineUnavailable(options.connection),
      );
    } catch (error) {
      const pending = opened;
      opened = undefined;
      for (const queue of queues.values()) void queue.disconnect().catch(() => {});
      queues.clear();
      void pending?.then(({ connection }) => connection.close()).catch(() => {});
      throw error;
    }
  }

  const onError = (message: string, error: unknown) => callbacks?.log({ level: 'error', message, error });

  async function queueOf(name: string): Promise<Queue> {
    const { bullmq, connection } = await open();
    let queue = queues.get(name);
    if (!queue) {
      queue = new bullmq.Queue(name, { connection: connection.connection, prefix });
      queue.on('error', (error) => onError(`bullmq engine: queue "${name}"`, error));
      queues.set(name, queue);
    }
    return queue;
  }

  async function workerOf(name: string, rateLimit?: EngineConsumer['rateLimit']): Promise<Worker> {
    const { bullmq, connection } = await open();
    const worker = new bullmq.Worker(name, null, {
      // BullMQ's limiter is kept in Redis per queue, so it holds across instances.
      ...(rateLimit ? { limiter: { max: rateLimit.limit, duration: rateLimit.windowMs } } : {}),
      connection: connection.connection as ConnectionOptions,
      prefix,
      autorun: false,
      // A blocking fetch returns within 1 s when the queue is empty, so stop() never waits long for one.
      drainDelay: 1,
      lockDuration: lockDurationMs,
      stalledInterval: stalledIntervalMs,
      maxStalledCount: Number.MAX_SAFE_INTEGER,
      skipLockRenewal: true,
    });
    worker.on('error', (error) => onError(`bullmq engine: worker of "${name}"`, error));
    workers.push(worker);
    void worker
      .startStalledCheckTimer()
      .catch((error: unknown) => onError(`bullmq engine: stalled check of "${name}"`, error));
    return worker;
  }

  async function add(
    queue: string,
    messages: Array<{
      data: MessageData;
      delayMs?: number;
      id?: string;
      priority?: number;
      debounce?: OutgoingMessage['debounce'];
    }>,
  ): Promise<string[]> {
    const target = await queueOf(queue);
    const jobs = await target.addBulk(
      messages.map(({ data, delayMs, id, priority, debounce }) => ({
        name: 'message',
        data,
        opts: {
          removeOnComplete,
          removeOnFail,
          ...(delayMs && delayMs > 0 ? { delay: delayMs } : {}),
          // An existing job with this id makes BullMQ add nothing and return it.
          ...(id ? { jobId: id } : {}),
          ...(priority ? { priority } : {}),
          // Debounce mode: a newer send replaces the delayed job and restarts its delay.
          ...(debounce
            ? { deduplication: { id: debounce.key, ttl: debounce.delayMs, extend: true, replace: true } }
            : {}),
        },
      })),
    );
    return jobs.map((job) => job.id!);
  }

  async function failedJobs(queue: string): Promise<Job[]> {
    return (await queueOf(queue)).getFailed();
  }

  /** Moves the waiting dead letters of `dlq` that came from `queue` (and `select` picks) back to `queue`. */
  async function requeueDeadLetters(
    queue: string,
    dlq: string,
    select: (message: FailedMessage) => boolean,
    requeue = true,
  ): Promise<string[]> {
    const moved: string[] = [];
    for (const { job, view } of await deadLetterJobs(queue, dlq)) {
      const data = job.data as MessageData;
      if (!select(view)) continue;
      try {
        await job.remove(); // fails when the dead-letter consumer holds it: then it is not replayed
      } catch {
        continue;
      }
      if (requeue) await add(queue, [{ data: { body: data.body, ...(data.trace ? { trace: data.trace } : {}) } }]);
      moved.push(job.id!);
    }
    return moved;
  }

  /** The waiting jobs of `dlq` that were dead-lettered from `queue`, with their failed-message view. */
  async function deadLetterJobs(queue: string, dlq: string): Promise<Array<{ job: Job; view: FailedMessage }>> {
    const jobs: Job[] = await (await queueOf(dlq)).getJobs(['waiting', 'delayed', 'prioritized']);
    return jobs.flatMap((job) => {
      const data = job.data as MessageData;
      if (data.deadLetter?.from !== queue) return [];
      return [
        { job, view: { ...toFailed(queue, job), reason: data.deadLetter.reason, failedAt: new Date(job.timestamp) } },
      ];
    });
  }

  function toFailed(queue: string, job: Job): FailedMessage {
    return {
      id: job.id!,
      queue,
      body: (job.data as MessageData).body,
      timestamp: new Date(job.timestamp),
      attempts: Math.max(1, job.attemptsStarted - ((job.data as MessageData).suspensions ?? 0)),
      reason: job.failedReason,
      failedAt: new Date(job.finishedOn ?? job.timestamp),
    };
  }

  function toCompleted(queue: string, job: Job): CompletedMessage {
    const data = job.data as MessageData;
    const startedAt = job.processedOn ?? job.timestamp;
    const finishedAt = job.finishedOn ?? startedAt;
    return {
      id: job.id!,
      queue,
      body: data.body,
      timestamp: new Date(job.timestamp),
      attempts: Math.max(1, job.attemptsStarted - (data.suspensions ?? 0) - (data.released ?? 0)),
      startedAt: new Date(startedAt),
      completedAt: new Date(finishedAt),
      durationMs: Math.max(0, finishedAt - startedAt),
      ...(data.trace ? { traceId: data.trace.traceId } : {}),
      ...resultOf(job.returnvalue),
    };
  }

  const runs = bullmqRuns({ open, queueOf, prefix, onError });
  // Under a global concurrency: whether another instance waits for a slot (see BatchConsumer).
  const contention = slotContention({
    instance,
    clientOf: async (queue) => scriptClientOf(await queueOf(queue)),
    keyOf: (queue) => `${prefix}:${queue}:framework.waiting`,
    onError,
  });
  return {
    kind: 'bullmq',
    durable: true,
    getRun: runs.getRun,
    onFinished: runs.onFinished,
    control: runs.control,
    admin: bullmqQueueAdmin(queueOf),
    limits: redisFleetLimits(async () => scriptClientOf(await queueOf('framework.limits')), {
      keyPrefix: `${prefix}:framework.limits:`,
      onError,
    }),
    // Results of ctx.step.run, per run, kept a week after their last write.
    steps: redisStepStore(async () => scriptClientOf(await queueOf('framework.steps')), {
      keyPrefix: `${prefix}:framework.steps:`,
      ttlMs: 7 * 86_400_000,
    }),
    // Runs waiting for events: a hash per event name; taking a waiter writes its step in the same script.
    waits: redisEventWaits(async () => scriptClientOf(await queueOf('framework.steps')), {
      keyPrefix: `${prefix}:framework.waits:`,
      stepsKeyPrefix: `${prefix}:framework.steps:`,
      ttlMs: 7 * 86_400_000,
    }),
    async wake(queue: string, id: string) {
      const job = await (await queueOf(queue)).getJob(id);
      if (!job || !(await job.isDelayed())) return false;
      try {
        await job.promote();
        return true;
      } catch {
        // Taken or settled between the check and the promotion.
        return false;
      }
    },
    async start(plan: EnginePlan, nextCallbacks: EngineCallbacks) {
      if (running) return;
      callbacks = nextCallbacks;
      await reachable(plan);
      running = true;
      const host = {
        instance,
        lockDurationMs,
        deliver: (queue: string, batch: Parameters<EngineCallbacks['deliverBatch']>[1]) =>
          nextCallbacks.deliverBatch(queue, batch),
        deadLetter: async (queue: string, data: MessageData) => void (await add(queue, [{ data }])),
        wake: async (queue: string) => {
          const target = await queueOf(queue);
          await wakeWorkers(await scriptClientOf(target), target.keys.marker!);
        },
        contended: (queue: string) => contention.contended(queue),
        waiting: (queue: string) => contention.waiting(queue),
        onError,
      };
      for (const consumer of plan.consumers) {
        // Messages in flight across every instance (BullMQ's global concurrency, checked when a job is fetched).
        const shared = await queueOf(consumer.queue);
        await (consumer.globalConcurrency === undefined
          ? shared.removeGlobalConcurrency()
          : shared.setGlobalConcurrency(consumer.globalConcurrency));
        // One fetch loop on one worker (and blocking connection) per queue, running `concurrency` batches at once.
        const batchConsumer = new BatchConsumer(await workerOf(consumer.queue, consumer.rateLimit), consumer, host);
        consumers.push(batchConsumer);
        batchConsumer.start();
      }
      if (plan.schedules.length > 0) {
        const name = `framework.schedules.${plan.runtime}`;
        const queue = await queueOf(name);
        const lock = redisLock(await scriptClientOf(queue), {
          keyPrefix: `${prefix}:${name}:overlap:`,
          leaseMs: lockDurationMs,
          onError,
        });
        scheduler = new Scheduler(queue, await workerOf(name), plan.schedules, {
          instance,
          lockDurationMs,
          clock,
          keepFinishedSeconds: 86_400,
          lock,
          fire: (trigger, time) => nextCallbacks.fireSchedule(trigger, time),
          onError,
          onSkip: (trigger, message) => nextCallbacks.log({ level: 'warn', message, trigger }),
          history: redisScheduleHistory(await scriptClientOf(queue), `${prefix}:${name}:last`),
          log: nextCallbacks.log,
        });
        await scheduler.start();
      }
    },
    async stop() {
      running = false;
      const schedulerStopped = scheduler?.stop();
      // Consumers end their loops first (a blocking fetch returns within the 1 s drain delay), settle the
      // batch in flight and give back jobs fetched ahead, while the workers' connections are still open.
      await Promise.allSettled(consumers.map((c) => c.stop()));
      await Promise.allSettled(workers.map((worker) => worker.close()));
      await Promise.allSettled([schedulerStopped, runs.close()]);
      await Promise.allSettled([...queues.values()].map((queue) => queue.close()));
      consumers.length = 0;
      workers.length = 0;
      queues.clear();
      scheduler = undefined;
      const current = opened;
      opened = undefined;
      if (current) await (await current).connection.close();
    },
    send(queue: string, messages: OutgoingMessage[]) {
      return add(
        queue,
        messages.map((m) => ({
          data: {
            body: m.body,
            ...(m.trace ? { trace: m.trace } : {}),
            ...(m.expiresAt === undefined ? {} : { expiresAt: m.expiresAt }),
          },
          delayMs: m.delayMs ?? 0,
          ...(m.id ? { id: m.id } : {}),
          ...(m.priority ? { priority: m.priority } : {}),
          ...(m.debounce ? { debounce: m.debounce } : {}),
        })),
      );
    },
    async failed(queue: string): Promise<FailedMessage[]> {
      return (await failedJobs(queue))
        .map((job) => toFailed(queue, job))
        .sort((a, b) => a.failedAt.getTime() - b.failedAt.getTime());
    },
    async cancel(queue: string, id: string) {
      const job = await (await queueOf(queue)).getJob(id);
      if (!job) return false;
      const state = await job.getState();
      if (state !== 'waiting' && state !== 'delayed' && state !== 'prioritized') return false;
      try {
        await job.remove();
        return true;
      } catch {
        // Fetched (locked) between the state check and the removal.
        return false;
      }
    },
    async replay(
      queue: string,
      select: (message: FailedMessage) => boolean,
      replayOptions: { deadLetterQueue?: string } = {},
    ) {
      const chosen = (await failedJobs(queue)).filter((job) => select(toFailed(queue, job)));
      for (const job of chosen) await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      const ids = chosen.map((job) => job.id!);
      if (replayOptions.deadLetterQueue)
        ids.push(...(await requeueDeadLetters(queue, replayOptions.deadLetterQueue, select)));
      return ids;
    },
    async discard(
      queue: string,
      select: (message: FailedMessage) => boolean,
      discardOptions: { deadLetterQueue?: string } = {},
    ) {
      const ids: string[] = [];
      for (const job of await failedJobs(queue)) {
        if (!select(toFailed(queue, job))) continue;
        await job.remove();
        ids.push(job.id!);
      }
      if (discardOptions.deadLetterQueue)
        ids.push(...(await requeueDeadLetters(queue, discardOptions.deadLetterQueue, select, false)));
      return ids;
    },
    async inspect(queue: string, inspectOptions: { deadLetterQueue?: string; limit: number }) {
      const target = await queueOf(queue);
      const counts = await target.getJobCounts('waiting', 'delayed', 'prioritized', 'active', 'failed');
      const failed = (await failedJobs(queue))
        .map((job) => toFailed(queue, job))
        .sort((a, b) => a.failedAt.getTime() - b.failedAt.getTime());
      const deadLetters = inspectOptions.deadLetterQueue
        ? (await deadLetterJobs(queue, inspectOptions.deadLetterQueue)).map((d) => d.view)
        : [];
      // BullMQ's completed set, newest first: the deliveries it kept (`idempotencyTtl`, `keepCompleted`).
      const completed = await target.getJobs(['completed'], 0, inspectOptions.limit - 1);
      return {
        waiting: (counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.prioritized ?? 0),
        inFlight: counts.active ?? 0,
        failed: counts.failed ?? failed.length,
        deadLettered: deadLetters.length,
        messages: [...failed, ...deadLetters].slice(0, inspectOptions.limit),
        completed: completed.map((job) => toCompleted(queue, job)),
      };
    },
  };
}
