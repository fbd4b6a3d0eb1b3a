import { parseDuration, type Duration } from '../duration.js';
import type { FailedMessage, OutgoingMessage, TriggerEngine } from '../engine/types.js';
import { TriggerError } from '../errors.js';
import type { TraceParent } from '../trace.js';
import type { TriggerRun } from './run-api.js';

/** Options of one message sent with {@link QueueProducer.send}. */
export interface SendOptions {
  /** Postpones the first delivery. */
  delay?: Duration;
  /**
   * Idempotency key (1–200 characters of letters, digits, `-`, `_`, `.`; not
   * only digits): while a message with this id is stored in the queue
   * (waiting, delayed, in flight or failed), sending it again adds nothing and
   * resolves with the same id. Once the message is acked the id is free again.
   * BullMQ's `jobId`.
   */
  id?: string;
  /** 1 (highest) to 2,097,152 (lowest); messages without one are delivered first, as in BullMQ. */
  priority?: number;
  /**
   * Time to live: a message still undelivered (or waiting for a retry) this long after the send is not run
   * but dead-lettered with reason `EXPIRED`.
   */
  ttl?: Duration;
}

/** Options of a send that waits for the message's run (`send(body, {wait: true, timeout})`). */
export interface SendAndWaitOptions extends SendOptions {
  wait: true;
  /** How long to wait for the run to finish. Default `'30s'`. */
  timeout?: Duration;
}

/** A producer for one queue. */
export interface QueueProducer {
  /**
   * Enqueues one message; resolves with its id (`options.id` when given).
   * @throws {TriggerError} codes `INVALID_MESSAGE_OPTIONS` (bad id or priority), `QUEUE_FULL` (memory engine
   * at `maxQueueLength`), `QUEUE_INVALID_BODY` (memory engine: a body structured clone cannot copy)
   * @example
   * ```ts
   * await runtime.queue('emails').send({ to }, { id: `welcome-${userId}`, priority: 1 });
   * ```
   */
  send(body: unknown, options?: SendOptions & { wait?: false }): Promise<string>;
  /**
   * Enqueues one message and waits for its run: resolves with the completed run (`result` is the
   * handler's return value). @throws {TriggerError} codes `RUN_FAILED` (`context.run`),
   * `RUN_WAIT_TIMEOUT`, `INVALID_MESSAGE_OPTIONS`
   * @example
   * ```ts
   * const run = await runtime.queue('thumbnails').send({ key }, { wait: true, timeout: '10s' });
   * console.log(run.result);
   * ```
   */
  send(body: unknown, options: SendAndWaitOptions): Promise<TriggerRun>;
  /** Enqueues up to `limits.maxBatchSize` messages; resolves with their ids in order. */
  sendBatch(messages: ReadonlyArray<{ body: unknown } & SendOptions>): Promise<string[]>;
  /**
   * Removes a message that still waits (not yet delivered, or delayed before a
   * retry); resolves `false` when it is in flight, settled or unknown.
   * @throws {TriggerError} code `ENGINE_UNSUPPORTED` when the engine cannot cancel
   */
  cancel(id: string): Promise<boolean>;
}

/** Which failed messages `runtime.replay` moves back: by id, all, or those a filter picks. */
export type ReplaySelector =
  { id: string | readonly string[] } | { all: true } | { filter: (message: FailedMessage) => boolean };

const MESSAGE_ID = /^[A-Za-z0-9_.-]{1,200}$/;
const MAX_PRIORITY = 2_097_152;

function invalid(message: string): TriggerError {
  return new TriggerError(message, { code: 'INVALID_MESSAGE_OPTIONS', retryable: false });
}

/**
 * Validates send options and turns them into an engine message. @throws {TriggerError} code
 * `INVALID_MESSAGE_OPTIONS`
 */
export function outgoingMessage(body: unknown, options: SendOptions, trace?: TraceParent): OutgoingMessage {
  const { id, priority, ttl } = options;
  const ttlMs = ttl === undefined ? undefined : parseDuration(ttl, 'ttl');
  if (id !== undefined && (typeof id !== 'string' || !MESSAGE_ID.test(id) || /^\d+$/.test(id))) {
    throw invalid(
      `message id must be 1–200 letters, digits, '-', '_' or '.', and not only digits; got ${JSON.stringify(id)}`,
    );
  }
  if (priority !== undefined && !(Number.isInteger(priority) && priority >= 1 && priority <= MAX_PRIORITY)) {
    throw invalid(`priority must be an integer from 1 (highest) to ${MAX_PRIORITY}; got ${String(priority)}`);
  }
  return {
    body,
    delayMs: options.delay === undefined ? 0 : parseDuration(options.delay, 'delay'),
    ...(id === undefined ? {} : { id }),
    ...(priority === undefined ? {} : { priority }),
    ...(trace ? { trace } : {}),
    ...(ttlMs === undefined ? {} : { expiresAt: Date.now() + ttlMs }),
  };
}

/** The predicate of a replay selector. */
export function replayPredicate(selector: ReplaySelector): (message: FailedMessage) => boolean {
  if ('all' in selector && selector.all === true) return () => true;
  if ('filter' in selector && typeof selector.filter === 'function') return selector.filter;
  if ('id' in selector) {
    const ids = new Set(typeof selector.id === 'string' ? [selector.id] : selector.id);
    return (message) => ids.has(message.id);
  }
  throw invalid('replay selector must be {id}, {all: true} or {filter}');
}

/** The engine's optional method, or a clear error when the engine lacks it. */
export function requireEngineMethod<K extends 'cancel' | 'replay' | 'discard'>(
  engine: TriggerEngine,
  method: K,
): NonNullable<TriggerEngine[K]> {
  const fn = engine[method];
  if (typeof fn !== 'function') {
    throw new TriggerError(`the ${engine.kind} engine does not support ${method}`, {
      code: 'ENGINE_UNSUPPORTED',
      retryable: false,
    });
  }
  return fn.bind(engine) as NonNullable<TriggerEngine[K]>;
}
