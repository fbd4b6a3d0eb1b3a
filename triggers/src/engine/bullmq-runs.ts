import type { Job, Queue, QueueEvents, QueueEventsProducer } from 'bullmq';
import type { MessageData } from './bullmq-consumer.js';
import type { EngineRun, FinishedRun } from './run-types.js';

type BullmqModule = typeof import('bullmq');

/**
 * The return value a consumer stores on a completed job: the handler's result, or, for a message moved to
 * a dead-letter queue (completed in its own queue), where it went and why.
 */
export type CompletedEnvelope = { result?: unknown } | { deadLetter: { queue: string; reason: string } };

/** What the run records need from the engine. */
export interface RunsHost {
  open(): Promise<{ bullmq: BullmqModule; connection: unknown }>;
  queueOf(name: string): Promise<Queue>;
  readonly prefix: string;
  onError(message: string, error: unknown): void;
}

/** The queue whose events carry `runtime.cancel(id)` to every instance. */
const CONTROL_QUEUE = 'framework.control';

/**
 * Runs on BullMQ: a run's state read from its job (`getState`, `returnvalue`, `failedReason`), runs that
 * finished on any instance from `QueueEvents` (one per queue, opened on first use), and a control channel
 * (`QueueEventsProducer` custom events) for cancels.
 */
export function bullmqRuns(host: RunsHost) {
  const events = new Map<string, Promise<QueueEvents>>();
  let producer: Promise<QueueEventsProducer> | undefined;

  function eventsOf(queue: string): Promise<QueueEvents> {
    let opened = events.get(queue);
    if (!opened) {
      opened = host.open().then(async ({ bullmq, connection }) => {
        const listener = new bullmq.QueueEvents(queue, { connection: connection as never, prefix: host.prefix });
        listener.on('error', (error) => host.onError(`bullmq engine: events of queue "${queue}"`, error));
        await listener.waitUntilReady();
        return listener;
      });
      events.set(queue, opened);
    }
    return opened;
  }

  return {
    async getRun(queue: string, id: string): Promise<EngineRun | null> {
      const source = await host.queueOf(queue);
      let job = await source.getJob(id);
      if (!job) return null;
      const state = await job.getState();
      // The job's hash and its state are two reads: a job that finished between them was read without its
      // result (or failure reason). Read it again; a finished job's hash no longer changes.
      if ((state === 'completed' || state === 'failed') && !job.finishedOn) job = (await source.getJob(id)) ?? job;
      return runOf(queue, job, state);
    },

    async onFinished(queues: readonly string[], listener: (run: FinishedRun) => void): Promise<() => void> {
      const offs = await Promise.all(
        queues.map(async (queue) => {
          const source = await eventsOf(queue);
          const completed = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) =>
            listener(finishedOf(queue, jobId, parseEnvelope(returnvalue)));
          const failed = ({ jobId, failedReason }: { jobId: string; failedReason: string }) =>
            listener({ id: jobId, queue, status: 'failed', error: failedReason });
          source.on('completed', completed);
          source.on('failed', failed);
          return () => {
            source.off('completed', completed);
            source.off('failed', failed);
          };
        }),
      );
      return () => offs.forEach((off) => off());
    },

    control: {
      async publishCancel(id: string) {
        producer ??= host
          .open()
          .then(
            ({ bullmq, connection }) =>
              new bullmq.QueueEventsProducer(CONTROL_QUEUE, { connection: connection as never, prefix: host.prefix }),
          );
        await (await producer).publishEvent({ eventName: 'cancel', id });
      },
      async listen(listener: (id: string) => void): Promise<() => void> {
        const source = await eventsOf(CONTROL_QUEUE);
        const onCancel = ({ id }: { id: string }) => listener(String(id));
        source.on('cancel' as never, onCancel as never);
        return () => source.off('cancel' as never, onCancel as never);
      },
    },

    async close() {
      const opened = [...events.values(), ...(producer ? [producer] : [])];
      events.clear();
      producer = undefined;
      await Promise.allSettled(opened.map(async (client) => (await client).close()));
    },
  };
}

/** `{result}` of a completed job's stored envelope (the handler's return value), or `{}` when it has none. */
export function resultOf(returnvalue: unknown): { result?: unknown } {
  const envelope = parseEnvelope(returnvalue);
  return envelope && 'result' in envelope && envelope.result !== null ? { result: envelope.result } : {};
}

function parseEnvelope(value: unknown): CompletedEnvelope | null {
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as CompletedEnvelope;
    } catch {
      return null;
    }
  }
  return (value ?? null) as CompletedEnvelope | null;
}

function finishedOf(queue: string, id: string, envelope: CompletedEnvelope | null): FinishedRun {
  if (envelope && 'deadLetter' in envelope) return { id, queue, status: 'failed', error: envelope.deadLetter.reason };
  return { id, queue, status: 'completed', result: envelope?.result };
}

/** The run view of a job in `state`. */
function runOf(queue: string, job: Job, state: string): EngineRun {
  const data = job.data as MessageData;
  const attempts = Math.max(0, job.attemptsStarted - (data.suspensions ?? 0) - (data.released ?? 0));
  const base: EngineRun = {
    id: job.id!,
    queue,
    body: data.body,
    status: 'waiting',
    attempts,
    createdAt: new Date(job.timestamp),
    ...(job.processedOn ? { startedAt: new Date(job.processedOn) } : {}),
    ...(job.finishedOn ? { finishedAt: new Date(job.finishedOn) } : {}),
  };
  if (state === 'completed') {
    const finished = finishedOf(queue, base.id, parseEnvelope(job.returnvalue));
    return finished.status === 'completed'
      ? { ...base, status: 'completed', result: finished.result }
      : { ...base, status: 'failed', error: finished.error! };
  }
  if (state === 'failed') return { ...base, status: 'failed', error: job.failedReason };
  if (state === 'active') return { ...base, status: 'active' };
  if (state === 'delayed') return { ...base, status: 'delayed' };
  return base;
}
