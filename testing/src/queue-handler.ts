/**
 * `toQueueHandler`: a queue trigger definition in the consumer shape
 * `handler.queue(messages, env, ctx)`, with the runtime's rules for
 * messages the handler leaves undecided.
 * @module
 */
import { mockTriggerContext } from '@framework/trigger/testing';
import type { QueueMessage, QueueSource, TriggerContext, TriggerDefinition } from '@framework/trigger';

/** The execution context of `queue(messages, env, ctx)`. Both members are optional. */
export interface QueueExecutionContext {
  waitUntil?(promise: Promise<unknown>): void;
  /** Where `ctx.emit` goes. Default: recorded and dropped. */
  emit?(trigger: string, payload: unknown): Promise<void>;
}

/** A batch: an array of messages, or `{queue?, messages}`. */
export type QueueBatchInput<Body> =
  readonly QueueMessage<Body>[] | { queue?: string; messages: readonly QueueMessage<Body>[] };

/** The consumer shape of a queue trigger. */
export interface QueueHandler<Body = unknown, Env = Record<string, any>> {
  queue(messages: QueueBatchInput<Body>, env?: Env, ctx?: QueueExecutionContext): Promise<void>;
}

/** Forwards the first decision on a message, as the runtime keeps only the first. */
function decisionTracker<Body>(message: QueueMessage<Body>) {
  let decided = false;
  const once =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A) => {
      if (decided) return;
      decided = true;
      fn(...args);
    };
  const wrapped: QueueMessage<Body> = {
    id: message.id,
    body: message.body,
    timestamp: message.timestamp,
    attempts: message.attempts,
    ack: once(() => message.ack()),
    retry: once((options) => (options === undefined ? message.retry() : message.retry(options))),
    deadLetter: once((reason) => (reason === undefined ? message.deadLetter() : message.deadLetter(reason))),
  };
  return { wrapped, isDecided: () => decided };
}

/**
 * Adapts a queue trigger for `handler.queue(messages, env, ctx)`. The handler
 * gets a queue event and a trigger context (`env`; `attempt`, the highest
 * `attempts` of the batch; `waitUntil` forwarded to `ctx`). Afterwards, as in
 * the runtime: when the handler returns, undecided messages are acked; when
 * it throws, they are retried (dead-lettered after `ctx.noRetry()` or a
 * non-retryable error) and the error is rethrown.
 *
 * @throws TypeError for a definition whose source is not a queue.
 * @example
 * ```ts
 * const message = createMockMessage({ body: { to: 'ada@example.com', name: 'Ada' } });
 * await toQueueHandler(sendWelcomeMail).queue([message], createMockEnv(), {});
 * expect(message.ack).toHaveBeenCalledOnce();
 * ```
 */
export function toQueueHandler<Body = unknown, Env = Record<string, any>>(
  definition: TriggerDefinition<QueueSource, Env>,
): QueueHandler<Body, Env> {
  if (definition?.source?.type !== 'queue') {
    throw new TypeError(
      `toQueueHandler: expected a queue trigger definition, got source type ${JSON.stringify(definition?.source?.type)}`,
    );
  }
  const source = definition.source;
  return {
    async queue(batch, env, ctx = {}) {
      const list = 'messages' in batch ? batch.messages : batch;
      const tracked = list.map((message) => decisionTracker(message));
      const base = mockTriggerContext({
        env: (env ?? {}) as Env,
        trigger: source.name,
        attempt: Math.max(1, ...list.map((m) => m.attempts)),
      });
      let noRetry = false;
      const context: TriggerContext<Env> = {
        env: base.env,
        traceId: base.traceId,
        attempt: base.attempt,
        trigger: base.trigger,
        signal: base.signal,
        waitUntil: (promise) => (ctx.waitUntil ? ctx.waitUntil(promise) : base.waitUntil(promise)),
        emit: (trigger, payload) => (ctx.emit ? ctx.emit(trigger, payload) : base.emit(trigger, payload)),
        noRetry: () => void (noRetry = true),
        step: base.step,
      };
      const queueName = ('messages' in batch ? batch.queue : undefined) ?? source.name;
      const undecided = () => tracked.filter((t) => !t.isDecided()).map((t) => t.wrapped);
      try {
        await definition.handle({ queue: queueName, messages: tracked.map((t) => t.wrapped) } as never, context);
      } catch (error) {
        const final = noRetry || (error as { retryable?: unknown } | null)?.retryable === false;
        for (const message of undecided()) {
          if (final) message.deadLetter(error instanceof Error ? error.message : String(error));
          else message.retry();
        }
        throw error;
      }
      for (const message of undecided()) message.ack();
    },
  };
}
