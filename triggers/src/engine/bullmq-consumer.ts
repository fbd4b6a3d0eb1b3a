import type { Job, Worker } from 'bullmq';
import type { TraceParent } from '../trace.js';
import type { EngineConsumer, EngineMessage, MessageDisposition } from './types.js';

/** The data of a message job. */
export interface MessageData {
  body: unknown;
  trace?: TraceParent;
  /** Set on messages moved to a dead-letter queue. */
  deadLetter?: { from: string; reason: string };
  /** Deliveries that only suspended a sleeping run; not counted in `attempts`. */
  suspensions?: number;
}

/** What a consumer needs from its engine. */
export interface ConsumerHost {
  readonly instance: string;
  readonly lockDurationMs: number;
  deliver(queue: string, messages: EngineMessage[]): Promise<MessageDisposition[]>;
  /** Adds `data` as a new message of `queue`. */
  deadLetter(queue: string, data: MessageData): Promise<void>;
  onError(message: string, error: unknown): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Consumes one BullMQ queue by manual job fetching: blocks for the first job,
 * then collects up to `batchSize` jobs until `batchTimeoutMs` has passed since
 * the first, delivers them as one batch and settles each job on its own (an
 * ack also fetches the next job, which starts the next batch). Locks
 * of held jobs are extended every half `lockDurationMs`; jobs of a process that
 * dies are found stalled by BullMQ and fetched again with `attemptsStarted` + 1.
 */
export class BatchConsumer {
  private running = false;
  private loop: Promise<void> | undefined;
  private batches = 0;
  /** Settling of the delivered batch. */
  private readonly settling = new Set<Promise<void>>();
  /**
   * Jobs already fetched (active and locked with the token of the job whose
   * completion fetched them, as a BullMQ worker does), for the next batch.
   */
  private readonly prefetched: Job[] = [];

  constructor(
    private readonly worker: Worker,
    private readonly consumer: EngineConsumer,
    private readonly host: ConsumerHost,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Stops fetching and waits for the batch in flight to settle. */
  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await Promise.all([...this.settling]);
  }

  private async run(): Promise<void> {
    // Jobs fetched by the last completions are delivered even when stopping: they are active already.
    while (this.running || this.prefetched.length > 0) {
      const token = `${this.host.instance}:${++this.batches}`;
      try {
        const batch = await this.collect(token);
        if (batch.length > 0) await this.deliver(batch, token);
      } catch (error) {
        if (!this.running) break;
        this.host.onError(`bullmq engine: consumer of queue "${this.consumer.queue}" failed`, error);
        await sleep(1_000);
      }
    }
  }

  private async fetch(token: string, block: boolean): Promise<Job | undefined> {
    return (await this.worker.getNextJob(token, { block })) ?? undefined;
  }

  private async collect(token: string): Promise<Job[]> {
    const ready = this.prefetched.splice(0, this.consumer.batchSize);
    let first: Job | undefined = ready.shift();
    while (this.running && !first) {
      const started = Date.now();
      first = await this.fetch(token, true);
      // A blocking fetch can return early (e.g. only delayed jobs exist): avoid spinning.
      if (!first && Date.now() - started < 5) await sleep(10);
    }
    if (!first) return [];
    const batch = [first, ...ready];
    const deadline = Date.now() + this.consumer.batchTimeoutMs;
    while (batch.length < this.consumer.batchSize && this.running) {
      // Non-blocking fetches for the rest of the batch go out together (one round trip).
      const need = this.consumer.batchSize - batch.length;
      const jobs = await Promise.all(Array.from({ length: need }, () => this.fetch(token, false)));
      const fetched = jobs.filter((job): job is Job => job !== undefined);
      batch.push(...fetched);
      if (fetched.length > 0) continue;
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      await sleep(Math.min(remaining, 20));
    }
    return batch;
  }

  /**
   * Delivers a batch and settles its jobs; an ack also fetches the next job in
   * the same script call (BullMQ's `fetchNext`), which fills the next batch.
   */
  private async deliver(batch: Job[], token: string): Promise<void> {
    const keeper = setInterval(
      () => {
        for (const job of batch) {
          job.extendLock(job.token ?? token, this.host.lockDurationMs).catch((error: unknown) => {
            this.host.onError(`bullmq engine: could not extend the lock of job ${job.id}`, error);
          });
        }
      },
      Math.max(100, this.host.lockDurationMs / 2),
    );
    let dispositions: MessageDisposition[] = [];
    try {
      dispositions = await this.host.deliver(this.consumer.queue, batch.map(toEngineMessage));
    } catch (error) {
      this.host.onError(`bullmq engine: delivery on queue "${this.consumer.queue}" failed; redelivering`, error);
    }
    const byId = new Map(dispositions.map((d) => [d.id, d]));
    const settled: Promise<void> = Promise.all(
      batch.map((job) => this.settle(job, byId.get(job.id!), job.token ?? token)),
    ).then(() => {
      clearInterval(keeper);
      this.settling.delete(settled);
    });
    this.settling.add(settled);
    await settled;
  }

  /** Completes an acked job, taking the next job of the queue in the same call while running. */
  private async complete(job: Job, token: string): Promise<void> {
    const next = await job.moveToCompleted(null, token, this.running);
    if (!Array.isArray(next) || !next[0]) return;
    const worker = this.worker as unknown as {
      nextJobFromJobData(data: unknown, id: unknown, token: string): Promise<Job | undefined>;
    };
    const fetched = await worker.nextJobFromJobData(next[0], next[1], token);
    if (fetched) this.prefetched.push(fetched);
  }

  private async settle(job: Job, disposition: MessageDisposition | undefined, token: string): Promise<void> {
    try {
      if (!disposition) {
        await job.moveToDelayed(Date.now() + 1_000, token);
      } else if (disposition.action === 'ack') {
        await this.complete(job, token);
      } else if (disposition.action === 'retry') {
        if (disposition.suspend) {
          const data = job.data as MessageData;
          await job.updateData({ ...data, suspensions: (data.suspensions ?? 0) + 1 });
        }
        await job.moveToDelayed(Date.now() + disposition.delayMs, token);
      } else if (disposition.queue) {
        const data = job.data as MessageData;
        await this.host.deadLetter(disposition.queue, {
          body: data.body,
          ...(data.trace ? { trace: data.trace } : {}),
          deadLetter: { from: this.consumer.queue, reason: disposition.reason },
        });
        await job.moveToCompleted(null, token, false);
      } else {
        await job.moveToFailed(new Error(disposition.reason), token, false);
      }
    } catch (error) {
      // Typically a lost lock: the job stalled and BullMQ redelivers it.
      this.host.onError(`bullmq engine: could not settle job ${job.id} of queue "${this.consumer.queue}"`, error);
    }
  }
}

/** The engine message of a fetched job; `attempts` is BullMQ's `attemptsStarted`. */
export function toEngineMessage(job: Job): EngineMessage {
  const data = job.data as MessageData;
  return {
    id: job.id!,
    body: data.body,
    timestamp: new Date(job.timestamp),
    attempts: Math.max(1, job.attemptsStarted - (data.suspensions ?? 0)),
    ...(data.trace ? { trace: data.trace } : {}),
  };
}
