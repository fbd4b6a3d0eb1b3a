import { timerAt, type Timer } from './timers.js';
import type { EngineConsumer, EngineMessage, FailedMessage, MessageDisposition, OutgoingMessage } from './types.js';

/** A stored message; `deliveries` counts completed deliveries. */
interface Stored {
  id: string;
  body: unknown;
  timestamp: Date;
  deliveries: number;
  trace?: EngineMessage['trace'];
}

interface Delayed {
  message: Stored;
  dueAt: number;
  timer?: Timer;
}

/** Where the queue sends batches and dead letters. */
export interface QueueHost {
  readonly keepAlive: boolean;
  deliver(queue: string, batch: EngineMessage[]): Promise<MessageDisposition[]>;
  deadLetter(toQueue: string, message: Stored): void;
  onError(queue: string, error: unknown): void;
}

/**
 * One in-memory queue: ready messages in FIFO order, delayed messages on
 * timers, one batch in flight at a time, failed messages kept for inspection.
 */
export class MemoryQueue {
  private readonly ready: Stored[] = [];
  private readonly delayed = new Set<Delayed>();
  private readonly failedMessages: FailedMessage[] = [];
  private consumer: EngineConsumer | undefined;
  private running = false;
  private inFlight: Promise<void> | undefined;
  private batchTimer: Timer | undefined;

  constructor(
    readonly name: string,
    private readonly host: QueueHost,
  ) {}

  /** Adds a message, now or after its delay. */
  push(message: Stored, delayMs = 0): void {
    if (delayMs <= 0) {
      this.ready.push(message);
      this.pump();
      return;
    }
    const entry: Delayed = { message, dueAt: Date.now() + delayMs };
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
    for (const entry of this.delayed) entry.timer?.cancel();
    await this.inFlight;
  }

  failed(): FailedMessage[] {
    return [...this.failedMessages];
  }

  /** Messages waiting (ready and delayed). */
  get size(): number {
    return this.ready.length + this.delayed.size;
  }

  private armDelayed(entry: Delayed): void {
    entry.timer = timerAt(
      entry.dueAt,
      () => {
        this.delayed.delete(entry);
        this.ready.push(entry.message);
        this.pump();
      },
      this.host.keepAlive,
    );
  }

  private pump(): void {
    const consumer = this.consumer;
    if (!this.running || !consumer || this.inFlight || this.ready.length === 0) return;
    if (this.ready.length >= consumer.batchSize) {
      this.batchTimer?.cancel();
      this.batchTimer = undefined;
      this.deliverNext(consumer);
    } else if (!this.batchTimer) {
      this.batchTimer = timerAt(
        Date.now() + consumer.batchTimeoutMs,
        () => {
          this.batchTimer = undefined;
          if (this.running && !this.inFlight) this.deliverNext(consumer);
        },
        this.host.keepAlive,
      );
    }
  }

  private deliverNext(consumer: EngineConsumer): void {
    const batch = this.ready.splice(0, consumer.batchSize);
    if (batch.length === 0) return;
    for (const message of batch) message.deliveries += 1;
    const delivered: EngineMessage[] = batch.map((m) => ({
      id: m.id,
      body: m.body,
      timestamp: m.timestamp,
      attempts: m.deliveries,
      ...(m.trace ? { trace: m.trace } : {}),
    }));
    this.inFlight = this.host
      .deliver(this.name, delivered)
      .then((dispositions) => this.apply(batch, dispositions))
      .catch((error: unknown) => {
        this.host.onError(this.name, error);
        for (const message of batch) this.push(message, 1_000);
      })
      .finally(() => {
        this.inFlight = undefined;
        this.pump();
      });
  }

  private apply(batch: Stored[], dispositions: MessageDisposition[]): void {
    const byId = new Map(dispositions.map((d) => [d.id, d]));
    for (const message of batch) {
      const disposition = byId.get(message.id);
      if (!disposition) {
        this.host.onError(this.name, new Error(`no disposition for message ${message.id}; redelivering`));
        this.push(message, 1_000);
      } else if (disposition.action === 'retry') {
        this.push(message, disposition.delayMs);
      } else if (disposition.action === 'deadLetter') {
        if (disposition.queue) this.host.deadLetter(disposition.queue, message);
        else
          this.failedMessages.push({
            id: message.id,
            queue: this.name,
            body: message.body,
            timestamp: message.timestamp,
            attempts: message.deliveries,
            reason: disposition.reason,
            failedAt: new Date(),
          });
      }
    }
  }
}

/** Creates a stored message from an outgoing one. */
export function storedMessage(id: string, message: OutgoingMessage): Stored {
  return { id, body: message.body, timestamp: new Date(), deliveries: 0, ...(message.trace ? { trace: message.trace } : {}) };
}
