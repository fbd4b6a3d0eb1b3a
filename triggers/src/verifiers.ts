/**
 * `@framework/trigger/verifiers`: webhook signature verifiers. Each factory
 * returns a `WebhookVerifier`, `(request, rawBody) => Promise<{valid, error?}>`,
 * that compares in constant time and never throws on bad input.
 *
 * @module
 */
import { DEFAULT_WEBHOOK_BODY_LIMIT, readBodyWithin } from './body-limit.js';
import { TriggerError, WebhookVerificationError } from './errors.js';
import type { WebhookVerifier } from './verifiers/types.js';

export { paymentVerifier, type PaymentVerifierOptions } from './verifiers/payment.js';
export { codehostVerifier, type CodehostVerifierOptions } from './verifiers/codehost.js';
export { chatVerifier, type ChatVerifierOptions } from './verifiers/chat.js';
export { commerceVerifier, type CommerceVerifierOptions } from './verifiers/commerce.js';
export { trackerVerifier, type TrackerVerifierOptions } from './verifiers/tracker.js';
export { customHmacVerifier, type CustomHmacVerifierOptions } from './verifiers/custom-hmac.js';
export { standardWebhooksVerifier, type StandardWebhooksVerifierOptions } from './verifiers/standard-webhooks.js';
export type { HmacAlgorithm } from './verifiers/crypto.js';
export type { ReplayPolicy, VerificationResult, WebhookVerifier } from './verifiers/types.js';
export {
  memoryReplayStore,
  type ClaimOutcome,
  type MemoryReplayStoreOptions,
  type ReplayStore,
} from './replay/store.js';
export { redisReplayStore, type RedisReplayStoreOptions, type ReplayRedisClient } from './replay/redis.js';
export { WebhookVerificationError } from './errors.js';

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** Largest body read when `rawBody` is not given, in bytes. Default 1 MiB (1 048 576). */
  maxBodySize?: number;
}

/**
 * Runs `verifier` and throws when the request is not authentic, for code that
 * handles webhooks outside `runtime.fetch`. Reads the body (at most
 * `maxBodySize` bytes, through the package's streaming limiter) when
 * `rawBody` is not given, so pass a clone if you need the body afterwards.
 * It does not de-duplicate: claim `verifier.replay?.deliveryId(request)` in
 * `verifier.replay.store` yourself if you need that.
 *
 * @throws {WebhookVerificationError} code `WEBHOOK_VERIFICATION_FAILED`, `context.reason` says why
 * @throws {TriggerError} code `PAYLOAD_TOO_LARGE` when the body exceeds `maxBodySize`,
 * `WEBHOOK_BODY_UNREADABLE` when its stream fails
 * @example
 * ```ts
 * await verifyWebhook(codehostVerifier({ secret }), request.clone());
 * ```
 */
export async function verifyWebhook(
  verifier: WebhookVerifier,
  request: Request,
  rawBody?: Uint8Array,
  options: VerifyWebhookOptions = {},
): Promise<void> {
  let body = rawBody;
  if (body === undefined) {
    const read = await readBodyWithin(request, options.maxBodySize ?? DEFAULT_WEBHOOK_BODY_LIMIT);
    if (read.status === 'too-large') {
      throw new TriggerError(`Body exceeds ${read.limit} bytes`, { code: 'PAYLOAD_TOO_LARGE', retryable: false });
    }
    if (read.status === 'unreadable') {
      throw new TriggerError('The request body could not be read', {
        code: 'WEBHOOK_BODY_UNREADABLE',
        retryable: false,
      });
    }
    body = read.body;
  }
  const result = await verifier(request, body);
  if (!result.valid) throw new WebhookVerificationError(undefined, { reason: result.error ?? 'invalid signature' });
}
