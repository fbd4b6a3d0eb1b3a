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
  /** Fetches given back unseen when a consumer stopped; not counted in `attempts`. */
  released?: number;
  /** Epoch ms after which the message is not run (`ttl`). */
  expiresAt?: number;
}

/** What a consumer needs from its engine. */
export interface ConsumerHost {
  readonly instance: string;
  readonly lockDurationMs: number;
  deliver(queue: string, messages: EngineMessage[]): Promise<MessageDisposition[]>;
  /** Adds `data` as a new message of `queue`. */
  deadLetter(queue: string, data: MessageData): Promise<void>;
  /**
   * Wakes the workers blocked on `queue` (adds BullMQ's marker). Needed under a global concurrency: a job
   * settled without fetching the next one adds no marker, so a worker refused while the queue was maxed
   * would otherwise sleep until its drain delay.
   */
  wake(queue: string): Promise<void>;
  onError(message: string, error: unknown): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Consumes one BullMQ queue by manual job fetching: blocks for the first job,
 * then collects up to `batchSize` jobs until `batchTimeoutMs` has passed since
 * the first, and delivers them as one batch. While the handler runs, the jobs
 * of the next batch are fetched (Redis is idle then); when it returns, the
 * batch is settled job by job while the next batch is already delivered, so
 * Redis round trips overlap the handler's own work, as a BullMQ `Worker` at
 * equal concurrency overlaps its jobs. At most one batch is in the handler and
 * one settling. Locks of held jobs (delivered or fetched ahead) are extended
 * every half `lockDurationMs`; jobs of a process that dies are found stalled
 * by BullMQ and fetched again with `attemptsStarted` + 1.
 */
export class BatchConsumer {
  private running = false;
  private loop: Promise<void> | undefined;
  private batches = 0;
  /** Settling of the delivered batch. */
  private readonly settling = new Set<Promise<void>>();
  /** The settling of the last delivered batch: the next one waits for it before settling its own. */
  private lastSettle: Promise<void> = Promise.resolve();
  /** Jobs fetched ahead (active and locked with their own token), for the next batch. */
  private readonly prefetched: Job[] = [];
  /** The blocking fetch in flight, if any (it outlives a wait that an ack's fetch ended). */
  private blocking: Promise<void> | undefined;
  /** Wakes the loop waiting for a first job. */
  private arrived: (() => void) | undefined;
  /** Jobs acks in flight may still fetch (see `deliver`). */
  private incoming = 0;

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
    while (this.running) {
      const token = `${this.host.instance}:${++this.batches}`;
      try {
        const batch = await this.collect(token);
        // A blocking fetch can outlive stop() (the worker's blocking connection closes late): give those back.
        if (!this.running) await this.release(batch, token);
        else if (batch.length > 0) await this.deliver(batch, token);
      } catch (error) {
        if (!this.running) break;
        this.host.onError(`bullmq engine: consumer of queue "${this.consumer.queue}" failed`, error);
        await sleep(1_000);
      }
    }
    // Jobs fetched ahead were never delivered: they go back to the head of the queue, their attempt uncounted.
    await this.blocking;
    await this.release(this.prefetched.splice(0), `${this.host.instance}:${this.batches}`);
  }

  /** Moves active jobs no handler saw back to the queue without counting the attempt they started. */
  private async release(jobs: Job[], token: string): Promise<void> {
    await Promise.all(
      jobs.map(async (job) => {
        try {
          const data = job.data as MessageData;
          await job.updateData({ ...data, released: (data.released ?? 0) + 1 });
          await job.moveToWait(job.token ?? token);
        } catch (error) {
          // The lock lapses and BullMQ's stalled check redelivers the job.
          this.host.onError(`bullmq engine: could not release job ${job.id} of queue "${this.consumer.queue}"`, error);
        }
      }),
    );
  }

  private async fetch(token: string, block: boolean): Promise<Job | undefined> {
    return (await this.worker.getNextJob(token, { block })) ?? undefined;
  }

  /** Holds a job fetched ahead, and wakes a loop waiting for a first job. */
  private hold(job: Job): void {
    this.prefetched.push(job);
    this.arrived?.();
  }

  /**
   * Waits for a job to be held: from a blocking fetch (its job is held too, even when an ack's fetch came
   * first) or from an ack of the settling batch. Avoids spinning when a blocking fetch returns early (e.g.
   * only delayed jobs exist).
   */
  private async awaitFirst(token: string): Promise<void> {
    const arrival = new Promise<void>((resolve) => (this.arrived = resolve));
    const started = Date.now();
    let failure: { error: unknown } | undefined;
    this.blocking ??= this.fetch(token, true)
      .then(
        (job) => job && this.hold(job),
        (error: unknown) => void (failure = { error }),
      )
      .finally(() => {
        this.blocking = undefined;
        this.arrived?.();
      });
    await arrival;
    this.arrived = undefined;
    if (failure) throw failure.error;
    if (this.prefetched.length === 0 && Date.now() - started < 5) await sleep(10);
  }

  private async collect(token: string): Promise<Job[]> {
    while (this.running && this.prefetched.length === 0) await this.awaitFirst(token);
    const batch = this.prefetched.splice(0, this.consumer.batchSize);
    if (batch.length === 0) return [];
    const deadline = Date.now() + this.consumer.batchTimeoutMs;
    while (batch.length < this.consumer.batchSize && this.running) {
      // Jobs acks fetched meanwhile, then non-blocking fetches for the rest go out together (one round trip).
      batch.push(...this.prefetched.splice(0, this.consumer.batchSize - batch.length));
      const need = this.consumer.batchSize - batch.length;
      if (need === 0) break;
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

  /** Fetches up to `batchSize` jobs for the next batch (non-blocking, in one round of parallel calls). */
  private async fetchAhead(): Promise<void> {
    const token = `${this.host.instance}:${++this.batches}`;
    // Jobs that acks of the settling batch are fetching count as held already.
    const want = this.consumer.batchSize - this.prefetched.length - this.incoming;
    if (want <= 0) return;
    try {
      const jobs = await Promise.all(Array.from({ length: want }, () => this.fetch(token, false)));
      for (const job of jobs) if (job) this.hold(job);
    } catch (error) {
      this.host.onError(`bullmq engine: fetching ahead on queue "${this.consumer.queue}" failed`, error);
    }
  }

  /**
   * Delivers a batch while the next one is fetched, then starts settling it
   * (after the previous batch has settled) without waiting, so the next
   * batch's handler overlaps this batch's settlement.
   */
  private async deliver(batch: Job[], token: string): Promise<void> {
    const keeper = setInterval(
      () => {
        for (const job of [...batch, ...this.prefetched]) {
          job.extendLock(job.token ?? token, this.host.lockDurationMs).catch((error: unknown) => {
            this.host.onError(`bullmq engine: could not extend the lock of job ${job.id}`, error);
          });
        }
      },
      Math.max(100, this.host.lockDurationMs / 2),
    );
    // Fetched while the handler runs. A process killed now leaves these jobs active too: BullMQ finds them
    // stalled and redelivers them with `attemptsStarted` + 1, although no handler saw them.
    const fetchingAhead = this.running ? this.fetchAhead() : Promise.resolve();
    let dispositions: MessageDisposition[] = [];
    try {
      dispositions = await this.host.deliver(this.consumer.queue, batch.map(toEngineMessage));
    } catch (error) {
      this.host.onError(`bullmq engine: delivery on queue "${this.consumer.queue}" failed; redelivering`, error);
    }
    await fetchingAhead;
    await this.lastSettle;
    const byId = new Map(dispositions.map((d) => [d.id, d]));
    // Acks fetch jobs for the batch after next in the same script (as a BullMQ Worker does), so one Redis
    // command settles a message and fetches the next instead of two. The loop is about to take a batch of
    // what is held ahead; the acks fetch what keeps one more batch there.
    // Not under a global concurrency: there an ack that fetched would hand its slot straight to the same
    // instance, and the others (woken by the marker after the settle) would never get one.
    const ahead = Math.max(0, this.prefetched.length - this.consumer.batchSize) + this.incoming;
    const fetching = this.running && this.consumer.globalConcurrency === undefined;
    let fetches = fetching ? Math.max(0, this.consumer.batchSize - ahead) : 0;
    const settled: Promise<void> = Promise.all(
      batch.map(async (job) => {
        const disposition = byId.get(job.id!);
        const fetchNext = disposition?.action === 'ack' && fetches-- > 0;
        if (!fetchNext) return void (await this.settle(job, disposition, job.token ?? token));
        this.incoming++;
        const next = await this.settle(job, disposition, job.token ?? token, true).finally(() => this.incoming--);
        if (!next) return;
        // After stop() the loop has given back what it held; a job fetched since goes back here.
        if (this.running) this.hold(next);
        else await this.release([next], token);
      }),
    ).then(async () => {
      clearInterval(keeper);
      if (this.consumer.globalConcurrency !== undefined)
        await this.host
          .wake(this.consumer.queue)
          .catch((error: unknown) => this.host.onError('bullmq engine: wake', error));
      this.settling.delete(settled);
    });
    this.settling.add(settled);
    this.lastSettle = settled;
  }

  /**
   * Settles one job as `disposition` says; an ack with `fetchNext` also moves the queue's next job to active,
   * locked with `token`, and returns it.
   */
  private async settle(
    job: Job,
    disposition: MessageDisposition | undefined,
    token: string,
    fetchNext = false,
  ): Promise<Job | undefined> {
    try {
      if (!disposition) {
        await job.moveToDelayed(Date.now() + 1_000, token);
      } else if (disposition.action === 'ack') {
        // The handler's result stays on the job (its returnvalue) for as long as BullMQ keeps it.
        const next: unknown = await job.moveToCompleted({ result: disposition.result ?? null }, token, fetchNext);
        return this.fetchedJob(job, next, token);
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
        await job.moveToCompleted(
          { deadLetter: { queue: disposition.queue, reason: disposition.reason } },
          token,
          false,
        );
      } else {
        await job.moveToFailed(new Error(disposition.reason), token, false);
      }
    } catch (error) {
      // Typically a lost lock: the job stalled and BullMQ redelivers it.
      this.host.onError(`bullmq engine: could not settle job ${job.id} of queue "${this.consumer.queue}"`, error);
    }
    return undefined;
  }

  /**
   * The job a settling script fetched (`[jobData, jobId, rateLimitDelay, delayUntil]`, BullMQ's answer to
   * `fetchNext`), or undefined when it fetched none (empty, paused, rate-limited or at its global concurrency).
   * Built with the settled job's own class (BullMQ stays a peer loaded on demand), on this worker.
   */
  private fetchedJob(settled: Job, answer: unknown, token: string): Job | undefined {
    if (!Array.isArray(answer) || !answer[0] || !answer[1]) return undefined;
    const JobClass = settled.constructor as typeof Job;
    const [data, id] = answer as [Parameters<typeof JobClass.fromJSON>[1], string];
    const next = JobClass.fromJSON(this.worker, data, id);
    next.token = token;
    return next;
  }
}

/** The engine message of a fetched job; `attempts` is BullMQ's `attemptsStarted`. */
export function toEngineMessage(job: Job): EngineMessage {
  const data = job.data as MessageData;
  return {
    id: job.id!,
    body: data.body,
    timestamp: new Date(job.timestamp),
    attempts: Math.max(1, job.attemptsStarted - (data.suspensions ?? 0) - (data.released ?? 0)),
    ...(data.trace ? { trace: data.trace } : {}),
    ...(data.expiresAt === undefined ? {} : { expiresAt: data.expiresAt }),
  };
}
