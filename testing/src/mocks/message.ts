/**
 * `createMockMessage`: a queue message whose decisions are vitest spies.
 * @module
 */
import { vi, type Mock } from 'vitest';
import type { QueueMessage, QueueRetryOptions } from '@framework/trigger';

/** A queue message whose `ack`, `retry` and `deadLetter` are `vi.fn` spies. */
export interface MockMessage<Body = unknown> extends QueueMessage<Body> {
  ack: Mock<() => void>;
  retry: Mock<(options?: QueueRetryOptions) => void>;
  deadLetter: Mock<(reason?: string) => void>;
}

/** Options of {@link createMockMessage}. */
export interface MockMessageInit<Body> {
  body: Body;
  /** Default `message-<n>`. */
  id?: string;
  /** Default now. */
  timestamp?: Date;
  /** Delivery count, 1-based. Default 1. */
  attempts?: number;
}

let sequence = 0;

/**
 * A queue message for a consumer under test.
 *
 * @example
 * ```ts
 * const message = createMockMessage({ body: { to: 'ada@example.com' } });
 * await toQueueHandler(sendWelcomeMail).queue([message], env, ctx);
 * expect(message.ack).toHaveBeenCalledOnce();
 * ```
 */
export function createMockMessage<Body = unknown>(init: MockMessageInit<Body>): MockMessage<Body> {
  return {
    id: init.id ?? `message-${++sequence}`,
    body: init.body,
    timestamp: init.timestamp ?? new Date(),
    attempts: init.attempts ?? 1,
    ack: vi.fn<() => void>(),
    retry: vi.fn<(options?: QueueRetryOptions) => void>(),
    deadLetter: vi.fn<(reason?: string) => void>(),
  };
}
