import type { LogEntry, QueueEvent, QueueRetryOptions, TriggerContext, TriggerSource } from '../types.js';
import type { SandboxPool, SandboxRun } from './pool.js';

/** What a sandboxed run needs from the attempt running it. */
export interface SandboxedAttempt {
  pool: SandboxPool;
  /** `file:` URL of the handler module. */
  module: string;
  source: TriggerSource;
  event: unknown;
  /** The attempt's full context, in this thread: `emit` and `noRetry` go through it. */
  ctx: TriggerContext<any>;
  /** The attempt's scoped log (lands in the run's logs, the tail and `onLog`). */
  log: (entry: Omit<LogEntry, 'timestamp'>) => void;
}

/**
 * Starts a handler run in a worker of `pool`: sends the event as
 * structured-clone data (a queue batch without its methods, an email without
 * its `raw` stream) and carries the worker's requests back: log lines,
 * `noRetry()`, `emit()`, and a queue message's `ack` / `retry` / `deadLetter`
 * onto the batch's own messages.
 */
export function runSandboxed(run: SandboxedAttempt): SandboxRun {
  const { source, event, ctx, log } = run;
  const queue = source.type === 'queue';
  const messages = queue ? new Map((event as QueueEvent).messages.map((m) => [m.id, m])) : undefined;
  return run.pool.run(
    {
      module: run.module,
      event: cloneableEvent(source, event),
      queue,
      traceId: ctx.traceId,
      attempt: ctx.attempt,
      trigger: ctx.trigger,
    },
    {
      log: (level, message, data) =>
        log({ level, message, ...(isRecord(data) ? { data } : data === undefined ? {} : { data: { value: data } }) }),
      noRetry: () => ctx.noRetry(),
      emit: (target, payload) => ctx.emit(target as never, payload as never),
      decide(id, action, detail) {
        const message = messages?.get(id);
        if (!message) return;
        try {
          if (action === 'ack') message.ack();
          else if (action === 'retry')
            message.retry(detail.delay === undefined ? undefined : ({ delay: detail.delay } as QueueRetryOptions));
          else message.deadLetter(typeof detail.reason === 'string' ? detail.reason : undefined);
        } catch (error) {
          log({ level: 'error', message: `message.${action}() of ${id} refused: ${String(error)}`, error });
        }
      },
    },
    ctx.signal,
  );
}

function cloneableEvent(source: TriggerSource, event: unknown): unknown {
  if (source.type === 'queue') {
    const batch = event as QueueEvent;
    return {
      queue: batch.queue,
      messages: batch.messages.map(({ id, body, timestamp, attempts }) => ({ id, body, timestamp, attempts })),
    };
  }
  if (source.type === 'email') {
    const { raw: _raw, ...rest } = event as Record<string, unknown>;
    return rest;
  }
  return event;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
