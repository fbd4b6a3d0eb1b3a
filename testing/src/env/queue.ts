/**
 * A queue binding that records what was sent.
 * @module
 */
import { vi, type Mock } from 'vitest';

/** Options of a send, as given. */
export interface QueueSendOptions {
  delaySeconds?: number;
  contentType?: string;
}

/** One recorded message. */
export interface SentMessage<Body = unknown> {
  body: Body;
  options?: QueueSendOptions;
}

/** A queue producer whose `send`/`sendBatch` are spies and whose messages land in `sent`. */
export interface MockQueue<Body = unknown> {
  send: Mock<(body: Body, options?: QueueSendOptions) => Promise<void>>;
  sendBatch: Mock<(messages: Iterable<{ body: Body } & QueueSendOptions>) => Promise<void>>;
  /** Every message sent, in order; bodies are copied at send time. */
  readonly sent: SentMessage<Body>[];
}

/**
 * Creates a recording queue producer.
 *
 * @example
 * ```ts
 * const queue = createMockQueue();
 * await queue.send({ to: 'ada@example.com' });
 * expect(queue.sent).toEqual([{ body: { to: 'ada@example.com' } }]);
 * ```
 */
export function createMockQueue<Body = unknown>(): MockQueue<Body> {
  const sent: SentMessage<Body>[] = [];
  const record = (body: Body, options: QueueSendOptions | undefined) =>
    void sent.push(
      options === undefined
        ? { body: structuredClone(body) }
        : { body: structuredClone(body), options: { ...options } },
    );
  return {
    sent,
    send: vi.fn(async (body: Body, options?: QueueSendOptions) => record(body, options)),
    sendBatch: vi.fn(async (messages: Iterable<{ body: Body } & QueueSendOptions>) => {
      for (const { body, ...options } of messages) record(body, Object.keys(options).length > 0 ? options : undefined);
    }),
  };
}
