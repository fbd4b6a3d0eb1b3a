import { messageOf } from '../runtime/attempt.js';
import type { RuntimeCore } from '../runtime/core.js';
import { dispatchWithRetries } from '../runtime/dispatch.js';
import type { ObjectStoreSource } from '../types.js';
import { objectSourceMatches, parseObjectNotification } from './notification.js';

/** Options of `runtime.dispatchObjectNotification`. */
export interface DispatchObjectOptions {
  /** Retries per handler after the first attempt. Default: each trigger's `config.retries`. */
  retries?: number;
}

/** What `runtime.dispatchObjectNotification` delivered. */
export interface ObjectDispatchResult {
  deliveries: Array<{ trigger: string; bucket: string; key: string; type: string }>;
}

/**
 * Runs every objectstore trigger matching each record of an S3 event
 * notification. Rejects with the first handler error after all have settled
 * (also logged at `error`).
 */
export async function dispatchObjectNotification(
  core: RuntimeCore,
  body: unknown,
  options: DispatchObjectOptions = {},
): Promise<ObjectDispatchResult> {
  const notices = parseObjectNotification(body);
  const triggers = core.registry.ofType('objectstore');
  const deliveries: ObjectDispatchResult['deliveries'] = [];
  const runs: Promise<void>[] = [];
  for (const notice of notices) {
    for (const trigger of triggers) {
      if (!objectSourceMatches(trigger.definition.source as ObjectStoreSource, notice)) continue;
      deliveries.push({
        trigger: trigger.name,
        bucket: notice.event.bucket,
        key: notice.event.object.key,
        type: notice.type,
      });
      const retries = options.retries === undefined ? {} : { retries: options.retries };
      runs.push(core.tracker.track(dispatchWithRetries(core, trigger, notice.event, retries)));
    }
  }
  const failure = (await Promise.allSettled(runs)).find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) {
    core.logger.log({
      level: 'error',
      message: `objectstore handler failed: ${messageOf(failure.reason)}`,
      error: failure.reason,
    });
    throw failure.reason;
  }
  return { deliveries };
}
