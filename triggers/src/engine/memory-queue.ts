import type { Timer } from './timers.js';
import { ExpiringIds } from './expiring-ids.js';
import type { EngineConsumer, EngineMessage, FailedMessage, MessageDisposition, OutgoingMessage } from './types.js';

/** A stored message; `deliveries` counts completed deliveries. */
interface Stored {
  id: string;
  body: unknown;
  timestamp: Date;
  deliveries: number;
  trace?: EngineMessage['trace'];
  /** BullMQ's scale: absent or 0 first, then 1 (highest) before larger numbers. */
  priority?: number;
  /** A waiting message with the same key is replaced by a newer send. */
  debounceKey?: string;
  /** Epoch ms after which it must not run (`ttl`). */
  expiresAt?: number;
  /** Set on a message moved to a dead-letter queue: where from, why, after how many deliveries, when. */
  deadLetter?: { from: string; reason: string; attempts: number; at: Date };
}

interface Delayed {
  message: Stored;
  dueAt: number;
  timer?: Timer;
}

/** Where the queue sends batches and dead letters. */
export interface QueueHost {
  readonly keepAlive: boolean;
  /** Epoch ms on the engine's clock. */
  now(): number;
  /** Calls `fn` at `at` (epoch ms on the engine's clock). */
  timer(at: number, fn: () => void): Timer;
  deliver(queue: string, batch: EngineMessage[]): Promise<MessageDisposition[]>;
  deadLetter(toQueue: string, message: Stored): void;
  onError(queue: string, error: unknown): void;
  /** How long an acked message's id stays taken (ms). Default 0. */
  readonly idempotencyTtlMs?: number;
}

/**
 * One in-memory queue: ready messages in priority then FIFO order, delayed
 * messages on timers, up to `concurrency` batches in flight, failed messages
 * kept for inspection.
 */
export class MemoryQueue {
  private readonly ready: Stored[] = [];
  private readonly delayed = new Set<Delayed>();
  private readonly failedMessages: Array<FailedMessage & { stored: Stored }> = [];
  /** Ids of messages stored here in any state (ready, delayed, in flight, failed), for idempotent sends. */
  private readonly ids = new Set<string>();
  private inFlightCount = 0;
  private paused = false;
  /** Ids of acked messages, kept for the idempotency TTL: a send with one of them adds nothing. */
  readonly completed: ExpiringIds;
  /** The current fixed rate-limit window. */
  private window: { start: number; count: number; timer?: Timer } = { start: 0, count: 0 };
  private consumer: EngineConsumer | undefined;
  private running = false;
  /** Batches being delivered (at most `consumer.concurrency`). */
  private readonly inFlight = new Set<Promise<void>>();
  private batchTimer: Timer | undefined;

  constructor(
    readonly name: string,
    private readonly host: QueueHost,
  ) {
    this.completed = new ExpiringIds(host.idempotencyTtlMs ?? 0, () => host.now());
  }

  /** Adds a new message unless one with its id is stored (or was acked within the TTL); returns whether it was added. */
  add(message: Stored, delayMs = 0): boolean {
    if (this.ids.has(message.id) || this.completed.has(message.id)) return false;
    if (message.debounceKey !== undefined) {
      for (const entry of this.delayed)
        if (entry.message.debounceKey === message.debounceKey) this.cancel(entry.message.id);
    }
    this.ids.add(message.id);
    this.push(message, delayMs);
    return true;
  }

  /** Removes a message that waits (ready or delayed); `false` when it is in flight, failed or unknown. */
  cancel(id: string): boolean {
    const index = this.ready.findIndex((m) => m.id === id);
    if (index >= 0) {
      this.ready.splice(index, 1);
      this.ids.delete(id);
      return true;
    }
    for (const entry of this.delayed) {
      if (entry.message.id !== id) continue;
      entry.timer?.cancel();
      this.delayed.delete(entry);
      this.ids.delete(id);
      return true;
    }
    return false;
  }

  /** Makes a delayed message ready now; `false` when it is not delayed. */
  wake(id: string): boolean {
    for (const entry of this.delayed) {
      if (entry.message.id !== id) continue;
      entry.timer?.cancel();
      this.delayed.delete(entry);
      this.insertReady(entry.message);
      this.pump();
      return true;
    }
    return false;
  }

  /** Moves failed messages chosen by `select` back to the queue with their delivery count reset; returns their ids. */
  replay(select: (message: FailedMessage) => boolean): string[] {
    const chosen = this.failedMessages.filter((m) => select(m));
    for (const message of chosen) {
      this.failedMessages.splice(this.failedMessages.indexOf(message), 1);
      this.push({ ...message.stored, deliveries: 0 });
    }
    return chosen.map((m) => m.id);
  }

  /**
   * Removes the waiting (ready or delayed) dead letters that came from
   * `from` and that `select` picks; returns them.
   */
  takeDeadLetters(from: string, select: (message: FailedMessage) => boolean): Stored[] {
    const waiting = [...this.ready, ...[...this.delayed].map((entry) => entry.message)];
    const chosen = waiting.filter((m) => m.deadLetter?.from === from && select(deadLetterView(m, from)));
    for (const message of chosen) this.cancel(message.id);
    return chosen;
  }

  /** Deletes the failed messages `select` picks; returns their ids. */
  discard(select: (message: FailedMessage) => boolean): string[] {
    const chosen = this.failedMessages.filter((m) => select(m));
    for (const message of chosen) {
      this.failedMessages.splice(this.failedMessages.indexOf(message), 1);
      this.ids.delete(message.id);
    }
    return chosen.map((m) => m.id);
  }

  /** The waiting dead letters that came from `from`, as failed messages, oldest first. */
  deadLettersFrom(from: string): FailedMessage[] {
    const waiting = [...this.ready, ...[...this.delayed].map((entry) => entry.message)];
    return waiting
      .filter((m) => m.deadLetter?.from === from)
      .map((m) => deadLetterView(m, from))
      .sort((a, b) => a.failedAt.getTime() - b.failedAt.getTime());
  }

  /** Messages in flight. */
  get inFlightMessages(): number {
    return this.inFlightCount;
  }

  /** Messages stored and not yet settled: ready, delayed and in flight. */
  get pending(): number {
    return this.size + this.inFlightCount;
  }

  /** Re-queues a stored message, now or after its delay, in priority order. */
  private push(message: Stored, delayMs = 0): void {
    if (delayMs <= 0) {
      this.insertReady(message);
      this.pump();
      return;
    }
    const entry: Delayed = { message, dueAt: this.host.now() + delayMs };
    this.delayed.add(entry);
    if (this.running) this.armDelayed(entry);
  }

  /** Starts delivering to `consumer` (or only releasing delayed messages when there is none). */
  start(consumer: EngineConsumer | undefined): void {
    this.consumer = consumer;
    this.running = true;
    for (const entry of this.delayed) this.armDelayed(entry);
    this.pump();
  }

  /** Stops timers and waits for the batch in flight. Messages stay stored. */
  async stop(): Promise<void> {
    this.running = false;
    this.batchTimer?.cancel();
    this.batchTimer = undefined;
    this.window.timer?.cancel();
    for (const entry of this.delayed) entry.timer?.cancel();
    await Promise.all([...this.inFlight]);
  }

  failed(): FailedMessage[] {
    return this.failedMessages.map(({ stored: _stored, ...message }) => message);
  }

  /** Inserts after every ready message of the same or a higher priority (BullMQ's order: none, then 1, 2, …). */
  private insertReady(message: Stored): void {
    const rank = message.priority ?? 0;
    const index = this.ready.findIndex((m) => (m.priority ?? 0) > rank);
    if (index < 0) this.ready.push(message);
    else this.ready.splice(index, 0, message);
  }

  /** Messages waiting (ready and delayed). */
  get size(): number {
    return this.ready.length + this.delayed.size;
  }

  private armDelayed(entry: Delayed): void {
    entry.timer = this.host.timer(entry.dueAt, () => {
      this.delayed.delete(entry);
      this.insertReady(entry.message);
      this.pump();
    });
  }

  /** Stops (`true`) or resumes delivering; sends still store messages. */
  setPaused(paused: boolean): void {
    this.paused = paused;
    if (!paused) this.pump();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Removes failed messages that failed before `before` (epoch ms), at most `limit`; returns their ids. */
  cleanFailed(before: number, limit: number): string[] {
    const chosen = this.failedMessages.filter((m) => m.failedAt.getTime() <= before).slice(0, limit);
    return this.discard((m) => chosen.some((c) => c.id === m.id));
  }

  private pump(): void {
    const consumer = this.consumer;
    if (this.paused || !this.running || !consumer || this.full(consumer) || this.ready.length === 0) return;
    if (this.ready.length >= consumer.batchSize) {
      this.batchTimer?.cancel();
      this.batchTimer = undefined;
      this.deliverNext(consumer);
    } else if (!this.batchTimer) {
      this.batchTimer = this.host.timer(this.host.now() + consumer.batchTimeoutMs, () => {
        this.batchTimer = undefined;
        if (this.running && !this.full(consumer)) this.deliverNext(consumer);
      });
    }
  }

  private full(consumer: EngineConsumer): boolean {
    return this.inFlight.size >= (consumer.concurrency ?? 1);
  }

  /** How many messages the rate limit lets through now; arms a timer for the next window when none. */
  private allowance(consumer: EngineConsumer): number {
    const limit = consumer.rateLimit;
    if (!limit) return consumer.batchSize;
    const now = this.host.now();
    if (now - this.window.start >= limit.windowMs) this.window = { start: now, count: 0 };
    const left = limit.limit - this.window.count;
    if (left <= 0 && !this.window.timer) {
      const window = this.window;
      window.timer = this.host.timer(window.start + limit.windowMs, () => {
        window.timer = undefined;
        this.pump();
      });
    }
    return Math.max(0, Math.min(consumer.batchSize, left));
  }

  private deliverNext(consumer: EngineConsumer): void {
    const allowed = this.allowance(consumer);
    const batch = this.ready.splice(0, allowed);
    if (batch.length === 0) return;
    this.window.count += batch.length;
    for (const message of batch) message.deliveries += 1;
    this.inFlightCount += batch.length;
    // Each delivery gets its own copy, as a store that serializes would give.
    const delivered: EngineMessage[] = batch.map((m) => ({
      id: m.id,
      body: structuredClone(m.body),
      timestamp: m.timestamp,
      attempts: m.deliveries,
      ...(m.trace ? { trace: m.trace } : {}),
      ...(m.expiresAt === undefined ? {} : { expiresAt: m.expiresAt }),
    }));
    const delivery: Promise<void> = this.host
      .deliver(this.name, delivered)
      .then((dispositions) => this.apply(batch, dispositions))
      .catch((error: unknown) => {
        this.host.onError(this.name, error);
        for (const message of batch) this.push(message, 1_000);
      })
      .finally(() => {
        this.inFlight.delete(delivery);
        this.inFlightCount -= batch.length;
        this.pump();
      });
    this.inFlight.add(delivery);
    // Fill the other free slots at once.
    this.pump();
  }

  private apply(batch: Stored[], dispositions: MessageDisposition[]): void {
    const byId = new Map(dispositions.map((d) => [d.id, d]));
    for (const message of batch) {
      const disposition = byId.get(message.id);
      if (!disposition) {
        this.host.onError(this.name, new Error(`no disposition for message ${message.id}; redelivering`));
        this.push(message, 1_000);
      } else if (disposition.action === 'retry') {
        if (disposition.suspend) message.deliveries -= 1;
        this.push(message, disposition.delayMs);
      } else if (disposition.action === 'ack') {
        this.ids.delete(message.id);
        this.completed.add(message.id);
      } else if (disposition.action === 'deadLetter') {
        if (disposition.queue) {
          this.ids.delete(message.id);
          this.host.deadLetter(disposition.queue, {
            ...message,
            deadLetter: {
              from: this.name,
              reason: disposition.reason,
              attempts: message.deliveries,
              at: new Date(this.host.now()),
            },
          });
        } else
          this.failedMessages.push({
            stored: message,
            id: message.id,
            queue: this.name,
            body: message.body,
            timestamp: message.timestamp,
            attempts: message.deliveries,
            reason: disposition.reason,
            failedAt: new Date(this.host.now()),
          });
      }
    }
  }
}

/** A dead letter as the {@link FailedMessage} a replay selector sees. */
function deadLetterView(message: Stored, from: string): FailedMessage {
  const { deadLetter } = message;
  return {
    id: message.id,
    queue: from,
    body: message.body,
    timestamp: message.timestamp,
    attempts: deadLetter?.attempts ?? 0,
    reason: deadLetter?.reason ?? '',
    failedAt: deadLetter?.at ?? message.timestamp,
  };
}

/** Creates a stored message from an outgoing one (the body as given: the caller clones it). */
export function storedMessage(id: string, message: OutgoingMessage, now = Date.now()): Stored {
  return {
    id,
    body: message.body,
    timestamp: new Date(now),
    deliveries: 0,
    ...(message.trace ? { trace: message.trace } : {}),
    ...(message.priority ? { priority: message.priority } : {}),
    ...(message.debounce ? { debounceKey: message.debounce.key } : {}),
    ...(message.expiresAt === undefined ? {} : { expiresAt: message.expiresAt }),
  };
}
