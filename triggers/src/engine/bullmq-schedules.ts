import type { Job, Queue, Worker } from 'bullmq';
import type { EngineClock } from './clock.js';
import { fireGuarded, skippedMessage, type ScheduleLock } from './overlap.js';
import { timerAt, type Timer } from './timers.js';
import type { EngineCallbacks, EngineSchedule } from './types.js';
import { catchUpTimes } from './catch-up.js';
import type { ScheduleHistory } from './schedule-history.js';

/** The data of a schedule occurrence job. */
interface OccurrenceData {
  trigger: string;
  /** The occurrence, ISO 8601. */
  scheduledTime: string;
  /** A catch-up job: the missed occurrences (ISO 8601) to run one after another, oldest first. */
  missed?: string[];
}

/** What the scheduler needs from its engine. */
export interface SchedulerHost {
  readonly instance: string;
  readonly lockDurationMs: number;
  readonly clock: EngineClock;
  /** How long finished occurrence jobs are kept, so a late instance cannot add them again. */
  readonly keepFinishedSeconds: number;
  /** The lock shared by all instances that enforces each schedule's `overlap`. */
  readonly lock: ScheduleLock;
  fire(trigger: string, scheduledTime: Date): Promise<void>;
  onError(message: string, error: unknown): void;
  /** Reports an occurrence dropped by `overlap: 'skip'`. */
  onSkip(trigger: string, message: string): void;
  /** The last occurrence that fired per schedule (for `catchUp`). */
  readonly history: ScheduleHistory;
  /** Engine log lines (catch-up notes). */
  log: EngineCallbacks['log'];
}

/**
 * The job id of one occurrence: `trigger:occurrence`, the occurrence in ISO
 * 8601 at minute precision (`daily-cleanup:2025-06-01T07:00Z`), since BullMQ
 * accepts custom ids with exactly two colons. Sub-minute occurrences (only
 * test schedules have them) append the seconds as `+SS.mmms`.
 */
export function occurrenceId(trigger: string, time: Date): string {
  const iso = time.toISOString();
  const minute = `${iso.slice(0, 16)}Z`;
  const rest = iso.slice(17, 23);
  return rest === '00.000' ? `${trigger}:${minute}` : `${trigger}:${minute}+${rest}s`;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs the schedules of one runtime on a shared BullMQ queue. Every instance
 * computes the next occurrence of each schedule with croner (on the engine's
 * clock) and adds it as a delayed job whose id is {@link occurrenceId}: the
 * instances add the same job, BullMQ keeps one, and one instance fetches and
 * fires it. After each occurrence every instance adds the following one.
 */
export class Scheduler {
  private readonly timers = new Map<string, Timer>();
  private readonly firing = new Set<Promise<void>>();
  private running = false;
  private loop: Promise<void> | undefined;
  private fetches = 0;

  constructor(
    private readonly queue: Queue,
    private readonly worker: Worker,
    private readonly schedules: EngineSchedule[],
    private readonly host: SchedulerHost,
  ) {}

  async start(): Promise<void> {
    this.running = true;
    const now = this.host.clock.now();
    await this.catchUp(now);
    await Promise.all(this.schedules.map((schedule) => this.plan(schedule, now)));
    this.loop = this.run();
  }

  /**
   * Adds one catch-up job per schedule that missed occurrences since the last
   * that fired (on any instance). Its id derives from that last occurrence, so
   * instances starting together add it once; its occurrences run one after another.
   */
  private async catchUp(now: Date): Promise<void> {
    let history: Record<string, number>;
    try {
      history = await this.host.history.load();
    } catch (error) {
      this.host.onError("bullmq engine: could not read the schedules' last occurrences; no catch-up", error);
      return;
    }
    for (const schedule of this.schedules) {
      const known = history[schedule.trigger];
      const last = known === undefined ? undefined : new Date(known);
      const missed = catchUpTimes(schedule, last, now, this.host.log);
      if (missed.length === 0 || !last) continue;
      const id = occurrenceId(schedule.trigger, last).replace(`${schedule.trigger}:`, `${schedule.trigger}:catch-up-`);
      const data: OccurrenceData = {
        trigger: schedule.trigger,
        scheduledTime: missed[0]!.toISOString(),
        missed: missed.map((time) => time.toISOString()),
      };
      try {
        await this.queue.add('occurrence', data, {
          jobId: id,
          removeOnComplete: { age: this.host.keepFinishedSeconds },
          removeOnFail: { age: this.host.keepFinishedSeconds },
        });
      } catch (error) {
        this.host.onError(`bullmq engine: could not add the catch-up of "${schedule.trigger}"`, error);
      }
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
    await this.loop;
    await Promise.allSettled([...this.firing]);
  }

  /** Adds the occurrence after `after` and arms a timer to add the one after it. */
  private async plan(schedule: EngineSchedule, after: Date): Promise<void> {
    const next = schedule.next(after);
    if (!next || !this.running) return;
    const delay = this.host.clock.delayUntil(next);
    try {
      await this.queue.add(
        'occurrence',
        { trigger: schedule.trigger, scheduledTime: next.toISOString() } satisfies OccurrenceData,
        {
          jobId: occurrenceId(schedule.trigger, next),
          delay,
          removeOnComplete: { age: this.host.keepFinishedSeconds },
          removeOnFail: { age: this.host.keepFinishedSeconds },
        },
      );
    } catch (error) {
      this.host.onError(
        `bullmq engine: could not add occurrence ${next.toISOString()} of "${schedule.trigger}"`,
        error,
      );
    }
    if (!this.running) return;
    this.timers.set(
      schedule.trigger,
      timerAt(Date.now() + delay, () => void this.plan(schedule, next), true),
    );
  }

  private async run(): Promise<void> {
    while (this.running) {
      const token = `${this.host.instance}:s${++this.fetches}`;
      try {
        const started = Date.now();
        const job = await this.worker.getNextJob(token, { block: true });
        if (!job) {
          if (Date.now() - started < 5) await sleep(10);
          continue;
        }
        const run = this.fire(job, token).finally(() => this.firing.delete(run));
        this.firing.add(run);
      } catch (error) {
        if (!this.running) break;
        this.host.onError('bullmq engine: schedule consumer failed', error);
        await sleep(1_000);
      }
    }
  }

  private async fire(job: Job, token: string): Promise<void> {
    const data = job.data as OccurrenceData;
    const keeper = setInterval(
      () => {
        job.extendLock(token, this.host.lockDurationMs).catch(() => {});
      },
      Math.max(100, this.host.lockDurationMs / 2),
    );
    try {
      const overlap = this.schedules.find((s) => s.trigger === data.trigger)?.overlap ?? 'skip';
      for (const iso of data.missed ?? [data.scheduledTime]) {
        if (!this.running) break;
        const time = new Date(iso);
        await this.host.history.record(data.trigger, time.getTime());
        await fireGuarded(overlap, this.host.lock, data.trigger, () => this.host.fire(data.trigger, time), {
          running: () => this.running,
          skipped: () => this.host.onSkip(data.trigger, skippedMessage(data.trigger, time)),
        });
      }
      await job.moveToCompleted(null, token, false);
    } catch (error) {
      this.host.onError(`bullmq engine: occurrence ${job.id} could not be completed`, error);
    } finally {
      clearInterval(keeper);
    }
  }
}
