import { parseDuration, type Duration } from '../duration.js';
import type { CleanableState, QueueAdmin } from '../engine/run-types.js';
import { TriggerError } from '../errors.js';
import { clockNow } from '../engine/clock.js';
import { readSteps, type TriggerStep } from './step-records.js';
import type { CancelRegistry } from './cancels.js';
import type { Logger } from './logger.js';
import {
  readRun,
  subscribeFinished,
  waitForRun,
  type FinishedTriggerRun,
  type RunApiHost,
  type RunWaitOptions,
  type TriggerRun,
} from './run-api.js';

/** Options of `runtime.clean`. */
export interface CleanOptions {
  /** Which finished messages: `'completed'` (kept results and idempotency ids) or `'failed'`. */
  state: CleanableState;
  /** Only those finished longer ago than this. Default `'0ms'` (all). */
  age?: Duration;
  /** At most this many. Default 1000. */
  limit?: number;
}

/** The members of the runtime about runs and queue administration. */
export interface RunMethods {
  /**
   * The state of run `id` (a message id returned by `send`, or a run of `emit`/`triggerAndWait`), or
   * `null` when unknown, removed or expired. `trigger` narrows the lookup to that trigger's queue.
   * @example
   * ```ts
   * const run = await runtime.getRun(id);
   * if (run?.status === 'completed') console.log(run.result);
   * ```
   */
  getRun(id: string, options?: { trigger?: string }): Promise<TriggerRun | null>;
  /**
   * The durable steps (`ctx.step.*`) of a run by its steps id: `RunRecord.stepsId` of any attempt (what
   * `onRun` listeners and the dashboard get), so it also reads the steps of `dispatch` and schedule runs,
   * which are no stored messages. In the order the steps were first called, each with its kind, status,
   * start and end (epoch ms on the runtime's clock), attempts and stored output (its JSON form). Read from
   * the engine's step store while the run runs or is suspended, and after it completed while the store keeps
   * them (memory engine: the last 1,000 finished runs; BullMQ: 7 days); `[]` when unknown.
   * @example
   * ```ts
   * runtime.onRun(async (attempt) => {
   *   if (attempt.stepsId) for (const step of await runtime.getSteps(attempt.stepsId)) console.log(step.id, step.status, step.durationMs);
   * });
   * ```
   */
  getSteps(stepsId: string): Promise<TriggerStep[]>;
  /**
   * Runs `name` on `payload` as a stored run (a queue trigger: a message; another trigger: an emit) and
   * waits for its result. @throws {TriggerError} codes `RUN_FAILED` (`context.run`), `RUN_WAIT_TIMEOUT`,
   * `UNKNOWN_TRIGGER`
   * @example
   * ```ts
   * const run = await runtime.triggerAndWait('resize', { key: 'a.png' }, { timeout: '10s' });
   * console.log(run.result);
   * ```
   */
  triggerAndWait(name: string, payload: unknown, options?: RunWaitOptions): Promise<TriggerRun>;
  /**
   * Subscribes to runs that finished for good (completed or failed), on every instance sharing a BullMQ
   * engine (`QueueEvents`), in this process on the memory engine; returns the unsubscribe function.
   */
  onRunFinished(listener: (run: FinishedTriggerRun) => void): () => void;
  /**
   * Cancels run `id`: removes it while it waits, or aborts the `ctx.signal` of the attempt running it (on
   * any instance of a BullMQ engine) with code `RUN_CANCELED` (not retryable, so it fails for good); a
   * sandboxed run's worker is terminated once `gracePeriod` passed. Resolves `false` when the run is
   * unknown or already finished.
   */
  cancel(id: string, options?: { trigger?: string }): Promise<boolean>;
  /** Stops delivering the queue of trigger `name` (a queue trigger), on every instance; sends still store. */
  pause(name: string): Promise<void>;
  resume(name: string): Promise<void>;
  isPaused(name: string): Promise<boolean>;
  /** Removes finished messages of trigger `name`'s queue; resolves with their ids. */
  clean(name: string, options: CleanOptions): Promise<string[]>;
}

/** What the run methods need beyond the run API host. */
export interface RunMethodsHost extends RunApiHost {
  readonly cancels: CancelRegistry;
  readonly logger: Logger;
  /** The queue of trigger `name` (its source queue, or the emit queue for other triggers). */
  queueOf(name: string): string;
  /** Stores one run of trigger `name` on `payload`; resolves with where it is stored. */
  enqueue(name: string, payload: unknown): Promise<{ queue: string; id: string }>;
}

/** Builds the run and queue-administration members of a runtime. */
export function runMethods(host: RunMethodsHost): RunMethods {
  const admin = (): QueueAdmin => {
    if (!host.engine.admin) {
      throw new TriggerError(`the ${host.engine.kind} engine does not support queue administration`, {
        code: 'ENGINE_UNSUPPORTED',
        retryable: false,
      });
    }
    return host.engine.admin;
  };
  const queueFor = (options?: { trigger?: string }) =>
    options?.trigger === undefined ? undefined : host.queueOf(options.trigger);
  return {
    getRun: (id, options) => readRun(host, id, queueFor(options), true),
    getSteps: (stepsId) => readSteps(host.steps, stepsId, clockNow(host.clock)),
    async triggerAndWait(name, payload, options) {
      const { queue, id } = await host.enqueue(name, payload);
      return waitForRun(host, queue, id, options);
    },
    onRunFinished(listener) {
      const queues = [...new Set([...host.registry.ofType('queue').map((t) => host.queueOf(t.name)), host.emitQueue])];
      let stopped = false;
      let unsubscribe: (() => void) | undefined;
      void subscribeFinished(host, queues, (run) => {
        if (!stopped) listener(run);
      }).then(
        (off) => (stopped ? off() : (unsubscribe = off)),
        (error: unknown) => host.logger.log({ level: 'error', message: 'onRunFinished: subscribing failed', error }),
      );
      return () => {
        stopped = true;
        unsubscribe?.();
      };
    },
    async cancel(id, options) {
      const run = await readRun(host, id, queueFor(options));
      if (!run || run.status === 'completed' || run.status === 'failed') return false;
      if ((run.status === 'waiting' || run.status === 'delayed') && (await host.engine.cancel?.(run.queue, id))) {
        host.ledger.forget(run.queue, id);
        host.logger.log({ level: 'info', message: `run ${id} cancelled while it waited`, data: { id } });
        return true;
      }
      if (host.engine.control) await host.engine.control.publishCancel(id);
      else if (!host.cancels.abort(id)) return false;
      host.logger.log({ level: 'info', message: `run ${id} cancelled while it ran`, data: { id } });
      return true;
    },
    pause: (name) => admin().pause(host.queueOf(name)),
    resume: (name) => admin().resume(host.queueOf(name)),
    isPaused: (name) => admin().isPaused(host.queueOf(name)),
    async clean(name, options) {
      const queue = host.queueOf(name);
      const ageMs = parseDuration(options.age ?? '0ms', 'clean({age})');
      const ids = await admin().clean(queue, options.state, ageMs, options.limit ?? 1000);
      for (const id of ids) host.ledger.forget(queue, id);
      return ids;
    },
  };
}
