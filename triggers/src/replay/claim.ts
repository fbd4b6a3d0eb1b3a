import { messageOf } from '../runtime/attempt.js';
import type { RuntimeCore } from '../runtime/core.js';
import { isDeliveryId } from '../verifiers/shared.js';
import type { ReplayPolicy } from '../verifiers/types.js';

/** Seconds a claim outlives the handler's timeout before another request may take the delivery over. */
const LEASE_MARGIN_SECONDS = 30;
/**
 * Longest a copy waits for the request that runs its delivery (capped by the handler timeout), and how often
 * it looks.
 */
const MAX_WAIT_MS = 25_000;
const POLL_MS = 50;

/** A claimed delivery of one trigger, settled once its handler has run. */
export interface ClaimedDelivery {
  /** Marks the delivery done (handler succeeded) or forgets it (handler failed). Store errors are logged. */
  settle(succeeded: boolean): Promise<void>;
}

/**
 * Claims the delivery id of a verified request for `trigger` (keys are per
 * trigger, so one delivery sent to two endpoints runs both), for the
 * handler's timeout plus a margin. While another request runs the delivery,
 * waits (at most the handler timeout, capped at 25 s) for it to finish:
 * `'done'` when it succeeded, a claim when it failed and was released.
 * Returns `undefined` when the request has no usable id; `'done'` for a
 * replay of a delivery handled within its window; `'in-progress'` when the
 * wait ran out; `'unavailable'` when the store failed (logged).
 */
export async function claimDelivery(
  core: RuntimeCore,
  trigger: { name: string; definition: { config: { timeoutMs: number } } },
  policy: ReplayPolicy,
  request: Request,
): Promise<ClaimedDelivery | 'done' | 'in-progress' | 'unavailable' | undefined> {
  const id = policy.deliveryId(request);
  if (!isDeliveryId(id)) return undefined;
  const key = `${trigger.name}:${id}`;
  const fail = (action: string) => (error: unknown) =>
    void core.logger.log({
      level: 'error',
      message: `webhook replay store failed to ${action}: ${messageOf(error)}`,
      trigger: trigger.name,
      error,
    });
  const { timeoutMs } = trigger.definition.config;
  const lease = Math.ceil(timeoutMs / 1000) + LEASE_MARGIN_SECONDS;
  const waitUntil = Date.now() + Math.min(timeoutMs, MAX_WAIT_MS);
  try {
    for (;;) {
      const outcome = await policy.store.claim(key, lease);
      if (outcome === 'claimed') break;
      if (outcome === 'done' || Date.now() >= waitUntil) return outcome;
      // Another request is running it: wait for its outcome, as a sender expects 200 for a copy of a handled delivery.
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } catch (error) {
    fail('claim a delivery')(error);
    return 'unavailable';
  }
  return {
    settle: (succeeded) =>
      succeeded
        ? policy.store.complete(key, policy.ttlSeconds).catch(fail('mark a delivery done'))
        : policy.store.release(key).catch(fail('release a delivery')),
  };
}
