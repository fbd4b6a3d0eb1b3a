import type { QueueEvent, QueueMessage, QueueRetryOptions } from '../types.js';

/** One recorded call on a mock queue message. */
export type MockMessageCall =
  { method: 'ack' } | { method: 'retry'; options?: QueueRetryOptions } | { method: 'deadLetter'; reason?: string };

/** A queue message that records `ack`/`retry`/`deadLetter` calls. */
export interface MockQueueMessage<Body = unknown> extends QueueMessage<Body> {
  /** Every call, in order. */
  readonly calls: MockMessageCall[];
  /** The first call's method (the one the runtime would apply), or `undefined`. */
  readonly outcome: MockMessageCall['method'] | undefined;
}

/** Fields of a mock message; all optional. */
export interface MockQueueMessageInit<Body = unknown> {
  id?: string;
  body?: Body;
  timestamp?: Date;
  attempts?: number;
}

let sequence = 0;

/**
 * A queue message with recording methods. Defaults: id `msg-<n>`, body `{}`,
 * timestamp now, attempts 1.
 *
 * @example
 * ```ts
 * const message = mockQueueMessage({ body: { to: 'ada@example.com' } });
 * await definition.handle(mockQueueEvent({ messages: [message] }), mockTriggerContext());
 * expect(message.outcome).toBe('ack');
 * ```
 */
export function mockQueueMessage<Body = unknown>(init: MockQueueMessageInit<Body> = {}): MockQueueMessage<Body> {
  const calls: MockMessageCall[] = [];
  return {
    id: init.id ?? `msg-${++sequence}`,
    body: (init.body ?? {}) as Body,
    timestamp: init.timestamp ?? new Date(),
    attempts: init.attempts ?? 1,
    calls,
    get outcome() {
      return calls[0]?.method;
    },
    ack: () => void calls.push({ method: 'ack' }),
    retry: (options?: QueueRetryOptions) =>
      void calls.push(options === undefined ? { method: 'retry' } : { method: 'retry', options }),
    deadLetter: (reason?: string) =>
      void calls.push(reason === undefined ? { method: 'deadLetter' } : { method: 'deadLetter', reason }),
  };
}

/** A queue event whose messages are {@link MockQueueMessage}s. */
export interface MockQueueEvent<Body = unknown> extends QueueEvent<Body> {
  messages: MockQueueMessage<Body>[];
}

/**
 * A queue event. Defaults: queue `'queue'`, one message with body `{}`.
 * Messages may be given as partial records or as {@link mockQueueMessage} results.
 *
 * @example
 * ```ts
 * const event = mockQueueEvent({ queue: 'welcome-mail', messages: [{ body: { to: 'ada@example.com' } }] });
 * ```
 */
export function mockQueueEvent<Body = unknown>(
  init: { queue?: string; messages?: Array<MockQueueMessageInit<Body> | MockQueueMessage<Body>> } = {},
): MockQueueEvent<Body> {
  const messages = (init.messages ?? [{}]).map((m) => ('calls' in m ? m : mockQueueMessage(m)));
  return { queue: init.queue ?? 'queue', messages };
}
