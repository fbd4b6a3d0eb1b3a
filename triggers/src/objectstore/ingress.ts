import { defineTrigger } from '../define.js';
import { isNonRetryable } from '../errors.js';
import type { TriggerDefinition, WebhookVerifier } from '../types.js';

/** Where S3 event notifications reach a runtime (`createTriggerRuntime({objectStore})`). */
export interface ObjectStoreIngressOptions {
  /** Serve `POST path` in `runtime.fetch`: the body is an S3 event notification. */
  path?: string;
  /** Verifies webhook notifications (e.g. `customHmacVerifier`). */
  verifier?: WebhookVerifier;
  /** Consume this queue: each message body is an S3 event notification (object or JSON string). */
  queue?: string;
}

/** Names of the triggers {@link objectStoreIngressTriggers} adds. */
export const OBJECTSTORE_WEBHOOK_TRIGGER = 'objectstore-notifications.webhook';
export const OBJECTSTORE_QUEUE_TRIGGER = 'objectstore-notifications.queue';

/**
 * The triggers that receive notifications for the runtime: a webhook at
 * `path` (a handler failure answers 500, so the sender redelivers) and a
 * consumer of `queue` (a failed notification's message is retried). Both run
 * the objectstore handlers once per delivery; the transport is the retry.
 */
export function objectStoreIngressTriggers(
  options: ObjectStoreIngressOptions,
  dispatch: (body: unknown) => Promise<unknown>,
): Record<string, TriggerDefinition<any, any>> {
  const triggers: Record<string, TriggerDefinition<any, any>> = {};
  if (options.path !== undefined) {
    triggers[OBJECTSTORE_WEBHOOK_TRIGGER] = defineTrigger({
      source: {
        type: 'webhook',
        path: options.path,
        methods: ['POST'],
        ...(options.verifier ? { verifier: options.verifier } : {}),
      },
      handle: async (event) => void (await dispatch(event.payload)),
    });
  }
  if (options.queue !== undefined) {
    triggers[OBJECTSTORE_QUEUE_TRIGGER] = defineTrigger({
      source: { type: 'queue', name: options.queue, batchTimeout: '1s' },
      handle: async (event) => {
        for (const message of event.messages) {
          try {
            await dispatch(message.body);
            message.ack();
          } catch (error) {
            if (isNonRetryable(error)) message.deadLetter(error instanceof Error ? error.message : String(error));
            else message.retry();
          }
        }
      },
    });
  }
  return triggers;
}
