/**
 * `@framework/trigger/verifiers`: webhook signature verifiers. Each factory
 * returns a `WebhookVerifier`, `(request, rawBody) => Promise<{valid, error?}>`,
 * that compares in constant time and never throws on bad input.
 *
 * @module
 */
import { WebhookVerificationError } from './errors.js';
import type { WebhookVerifier } from './verifiers/types.js';

export { paymentVerifier, type PaymentVerifierOptions } from './verifiers/payment.js';
export { codehostVerifier, type CodehostVerifierOptions } from './verifiers/codehost.js';
export { chatVerifier, type ChatVerifierOptions } from './verifiers/chat.js';
export { commerceVerifier, type CommerceVerifierOptions } from './verifiers/commerce.js';
export { trackerVerifier, type TrackerVerifierOptions } from './verifiers/tracker.js';
export { customHmacVerifier, type CustomHmacVerifierOptions } from './verifiers/custom-hmac.js';
export { standardWebhooksVerifier, type StandardWebhooksVerifierOptions } from './verifiers/standard-webhooks.js';
export type { HmacAlgorithm } from './verifiers/crypto.js';
export type { VerificationResult, WebhookVerifier } from './verifiers/types.js';
export { WebhookVerificationError } from './errors.js';

/**
 * Runs `verifier` and throws when the request is not authentic, for code that
 * handles webhooks outside `runtime.fetch`. Reads the body when `rawBody` is
 * not given (so pass a clone if you need the body afterwards).
 *
 * @throws {WebhookVerificationError} code `WEBHOOK_VERIFICATION_FAILED`, `context.reason` says why
 * @example
 * ```ts
 * await verifyWebhook(codehostVerifier({ secret }), request.clone());
 * ```
 */
export async function verifyWebhook(verifier: WebhookVerifier, request: Request, rawBody?: Uint8Array): Promise<void> {
  const body = rawBody ?? new Uint8Array(await request.arrayBuffer());
  const result = await verifier(request, body);
  if (!result.valid) throw new WebhookVerificationError(undefined, { reason: result.error ?? 'invalid signature' });
}
