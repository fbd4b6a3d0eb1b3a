/**
 * The contract between the trigger runtime and an engine. The runtime owns
 * handlers, contexts, retries policy and observability; an engine owns time
 * and storage: when schedules fire, where queue messages wait, and how events
 * of external sources (mail, object storage, database changes) arrive.
 *
 * `memoryEngine()` implements it in-process. A Redis engine (BullMQ) will
 * implement the same interface for many instances: schedules deduplicated by
 * `trigger + occurrence time`, queues as BullMQ queues with manual batch
 * fetching, failed messages kept in Redis.
 *
 * @module
 */
import type { TraceParent } from '../trace.js';
import type {
  CatchUpPolicy,
  EmailSource,
  LogEntry,
  ObjectStoreSource,
  OverlapPolicy,
  SqlDbSource,
  TriggerEvent,
} from '../types.js';

/** A queue message as stored by an engine. `attempts` is the 1-based delivery count of this delivery. */
export interface EngineMessage {
  id: string;
  body: unknown;
  /** When the message was first sent. */
  timestamp: Date;
  attempts: number;
  /** Trace position of the producer, so the consumer continues its trace. */
  trace?: TraceParent;
  /** Epoch ms after which the message must not run (its `ttl`); it is then dead-lettered with reason `EXPIRED`. */
  expiresAt?: number;
}

/** A message to enqueue. `delayMs` postpones its first delivery. */
export interface OutgoingMessage {
  body: unknown;
  delayMs?: number;
  trace?: TraceParent;
  /**
   * Idempotency key: while a message with this id is stored in the queue
   * (waiting, delayed, in flight or failed), sending it again adds nothing and
   * returns the same id. BullMQ's `jobId`.
   */
  id?: string;
  /** 1 (highest) to 2,097,152; messages without a priority come first, as in BullMQ. */
  priority?: number;
  /**
   * While a message sent with the same `key` still waits for its delay, this
   * one replaces it (body and delay: the delay restarts). Sent with `delayMs`
   * equal to `debounce.delayMs`. BullMQ's debounce mode of deduplication.
   */
  debounce?: { key: string; delayMs: number };
  /** Epoch ms after which the message is dead-lettered (reason `EXPIRED`) instead of run. */
  expiresAt?: number;
}

/** What the runtime decided for each delivered message. */
export type MessageDisposition =
  /** `result`: the handler's return value, kept as the run's result (JSON on BullMQ). */
  | { id: string; action: 'ack'; result?: unknown }
  /** `suspend`: a durable step sleeps; the delivery is not counted as an attempt. */
  | { id: string; action: 'retry'; delayMs: number; suspend?: boolean }
  /** Move to `queue` (a dead-letter queue) or, without one, keep as failed. */
  | { id: string; action: 'deadLetter'; reason: string; queue?: string };

/** A message kept after its retries were spent and no dead-letter queue was set. */
export interface FailedMessage {
  id: string;
  queue: string;
  body: unknown;
  timestamp: Date;
  attempts: number;
  reason: string;
  failedAt: Date;
}

/** A delivered message an engine kept (BullMQ: its completed set, `keepCompleted`). */
export interface CompletedMessage {
  id: string;
  queue: string;
  body: unknown;
  /** When it was sent. */
  timestamp: Date;
  /** Deliveries it took (1 when the first one acked). */
  attempts: number;
  /** When the delivery that acked it was fetched. */
  startedAt: Date;
  completedAt: Date;
  /** `completedAt - startedAt`, in ms: includes waiting for the rest of its batch. */
  durationMs: number;
  /** The W3C trace id the message carried, when it carried one. */
  traceId?: string;
  /** The handler's return value (the run's result), when the engine keeps it. */
  result?: unknown;
}

/**
 * Counts of one queue as an engine reports them (`null` when it cannot tell), with its failed and
 * dead-lettered messages.
 */
export interface EngineQueueStats {
  /** Ready and delayed messages. */
  waiting: number | null;
  inFlight: number | null;
  /** Messages kept as failed in this queue. */
  failed: number;
  /** Messages that came from this queue and wait in its dead-letter queue. */
  deadLettered: number;
  /** Failed, then dead-lettered messages, oldest first, at most `limit`. */
  messages: FailedMessage[];
  /** Recently completed messages, newest first, at most `limit`, when the engine keeps them. */
  completed?: CompletedMessage[];
}

/**
 * A schedule the engine must fire: `cron` (5 or 6 fields, evaluated in
 * `timezone`) or an `every` interval (`cron` then reads `every 30s`).
 */
export interface EngineSchedule {
  trigger: string;
  cron: string;
  timezone: string;
  /**
   * Whether an occurrence may start while the previous run of this schedule
   * still runs, on any instance sharing the engine. Default `'skip'`.
   */
  overlap?: OverlapPolicy;
  /**
   * Occurrences missed while no runtime ran, since the last that fired: `'none'` (default), `'latest'` or
   * `'all'` (see `missedOccurrences`). Engines that keep no history fire none.
   */
  catchUp?: CatchUpPolicy;
  /** The next occurrence strictly after `after` (croner, DST-safe), or null. */
  next(after: Date): Date | null;
}

/**
 * A queue the engine must deliver in batches of up to `batchSize`, waiting at most `batchTimeoutMs` for a
 * full batch, `concurrency` batches at once.
 */
export interface EngineConsumer {
  queue: string;
  batchSize: number;
  batchTimeoutMs: number;
  /** Batches in flight at once per instance. Default 1. */
  concurrency?: number;
  /**
   * At most `limit` messages delivered per `windowMs` (fixed windows; across instances where the engine
   * shares state).
   */
  rateLimit?: { limit: number; windowMs: number };
  /**
   * Messages in flight at once across every instance sharing the engine (BullMQ: `Queue.setGlobalConcurrency`);
   * `undefined` lifts a limit set before.
   */
  globalConcurrency?: number;
}

/** A source whose events originate outside the process (part 2: SMTP, bucket notifications, outbox polling). */
export interface EngineExternalSource {
  trigger: string;
  source: EmailSource | ObjectStoreSource | SqlDbSource;
}

/** Everything the engine has to run, computed by the runtime from the triggers. */
export interface EnginePlan {
  /** Name of the runtime (for engines shared between processes). */
  runtime: string;
  schedules: EngineSchedule[];
  consumers: EngineConsumer[];
  sources: EngineExternalSource[];
}

/** Callbacks into the runtime. None of them rejects: failures are handled and logged by the runtime. */
export interface EngineCallbacks {
  /** Runs a scheduled trigger for one occurrence (with retries). */
  fireSchedule(trigger: string, scheduledTime: Date): Promise<void>;
  /** Runs a queue consumer on a batch and returns one disposition per message. */
  deliverBatch(queue: string, messages: EngineMessage[]): Promise<MessageDisposition[]>;
  /** Runs a trigger of an external source on an event (with retries). */
  deliverEvent(trigger: string, event: TriggerEvent): Promise<void>;
  /** Engine diagnostics. */
  log(entry: Omit<LogEntry, 'timestamp'>): void;
}

/**
 * Where durable steps (`ctx.step.run`) keep their results: per run id, step
 * id → the result as JSON text.
 */
export interface StepStore {
  load(runId: string): Promise<Record<string, string>>;
  save(runId: string, stepId: string, value: string): Promise<void>;
  /** Forgets a run (a cancelled run; a finished one when the store has no `finish`). */
  clear(runId: string): Promise<void>;
  /**
   * Optional: ends a run that succeeded. Its steps leave `load` (a later run with the same id starts afresh)
   * but stay readable with `loadFinished` for a while (the memory store: the last 1,000 runs; BullMQ: 7 days).
   */
  finish?(runId: string): Promise<void>;
  /** Optional: the steps of a run ended with `finish`, while they are kept (`{}` after). */
  loadFinished?(runId: string): Promise<Record<string, string>>;
}

export type { EngineRun, EngineRunStatus, FinishedRun, FleetLimits, QueueAdmin } from './run-types.js';
import type { EngineRun, FinishedRun, FleetLimits, QueueAdmin } from './run-types.js';
import type { EventWaits } from './wait-types.js';
export type { EventWaiter, EventWaits } from './wait-types.js';

/** A trigger engine. One instance serves one runtime. */
export interface TriggerEngine {
  /** A short name such as `'memory'` or `'bullmq'`. */
  readonly kind: string;
  /**
   * `true` when stored messages outlive the process (BullMQ): the runtime then
   * carries `emit()`s to non-queue triggers on an internal queue instead of
   * running them in the background of the emitting process.
   */
  readonly durable?: boolean;
  /** Storage of durable steps; without it the runtime keeps them in process memory. */
  readonly steps?: StepStore;
  /**
   * Runs waiting for events (`ctx.step.waitForEvent`, `cancelOn`), written
   * beside `steps`; without it the runtime keeps them in process memory.
   */
  readonly waits?: EventWaits;
  /**
   * Makes a delayed message of `queue` ready now (a waiting run got its
   * event); `false` when it is not delayed (in flight, settled or unknown).
   */
  wake?(queue: string, id: string): Promise<boolean>;
  /** Begins firing schedules, delivering queues and listening to external sources. */
  start(plan: EnginePlan, callbacks: EngineCallbacks): Promise<void>;
  /** Stops timers and listeners and waits for deliveries in flight. Stored messages stay stored. */
  stop(): Promise<void>;
  /** Enqueues messages (also before `start`) and returns their ids in order. */
  send(queue: string, messages: OutgoingMessage[]): Promise<string[]>;
  /** Messages of `queue` that failed for good (no dead-letter queue), oldest first. */
  failed(queue: string): Promise<FailedMessage[]>;
  /**
   * Removes a message that still waits (ready or delayed); `false` when it is in flight, settled or unknown.
   * Optional for third-party engines.
   */
  cancel?(queue: string, id: string): Promise<boolean>;
  /**
   * Moves the failed messages of `queue` that `select` picks back to the
   * queue, their delivery count reset; with `deadLetterQueue`, also the
   * messages waiting there that came from `queue`. Resolves with their ids
   * (a dead letter's id in its dead-letter queue). Optional for third-party
   * engines.
   */
  replay?(
    queue: string,
    select: (message: FailedMessage) => boolean,
    options?: { deadLetterQueue?: string },
  ): Promise<string[]>;
  /**
   * Deletes the failed messages of `queue` that `select` picks and, with
   * `deadLetterQueue`, the waiting dead letters there that came from `queue`;
   * resolves with their ids. Optional for third-party engines.
   */
  discard?(
    queue: string,
    select: (message: FailedMessage) => boolean,
    options?: { deadLetterQueue?: string },
  ): Promise<string[]>;
  /** Counts and failed / dead-lettered messages of `queue` (for dashboards). Optional for third-party engines. */
  inspect?(queue: string, options: { deadLetterQueue?: string; limit: number }): Promise<EngineQueueStats>;
  /**
   * The stored state of message `id` of `queue` (its run), or `null` when unknown or removed. Engines
   * without it get the runtime's in-process record of the runs it saw.
   */
  getRun?(queue: string, id: string): Promise<EngineRun | null>;
  /**
   * Subscribes to runs of `queues` that finished for good on any instance sharing the engine (BullMQ:
   * `QueueEvents`); returns the unsubscribe function. Without it the runtime reports its own runs.
   */
  onFinished?(queues: readonly string[], listener: (run: FinishedRun) => void): Promise<() => void>;
  /** Pause, resume and clean queues. Optional for third-party engines. */
  readonly admin?: QueueAdmin;
  /** Limits held across every instance sharing the engine (BullMQ: Redis). Without it, per process. */
  readonly limits?: FleetLimits;
  /**
   * Carries `runtime.cancel(id)` to every instance sharing the engine; `listen` gets the ids cancelled
   * anywhere (this instance included). Without it, cancels reach this process only.
   */
  readonly control?: {
    publishCancel(id: string): Promise<void>;
    listen(listener: (id: string) => void): Promise<() => void>;
  };
}
