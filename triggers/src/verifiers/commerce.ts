import { decodeBase64 } from './crypto.js';
import { header, invalid, requireSecret, signatureMatches, VALID, verifier } from './shared.js';
import type { WebhookVerifier } from './types.js';

/** Options of {@link commerceVerifier}. */
export interface CommerceVerifierOptions {
  /** The app's client secret. */
  secret: string;
}

/**
 * Verifies Shopify-style commerce webhooks: base64 HMAC-SHA256 of the raw body
 * in `X-Shopify-Hmac-Sha256`, or in the unprefixed `Shopify-Hmac-Sha256` that
 * newer deliveries use.
 *
 * Replay: the scheme signs only the body (no timestamp, no id), so a captured request verifies again at any time;
 * keep the handler idempotent (Shopify's `X-Shopify-Webhook-Id` header is unsigned).
 *
 * @throws {TriggerDefinitionError} at creation when `secret` is empty
 * @example
 * ```ts
 * verifier: commerceVerifier({ secret: env.COMMERCE_CLIENT_SECRET })
 * ```
 */
export function commerceVerifier(options: CommerceVerifierOptions): WebhookVerifier {
  const secret = requireSecret('commerceVerifier', 'secret', options?.secret);
  return verifier('commerceVerifier', async (request, rawBody) => {
    const value = header(request, 'x-shopify-hmac-sha256', 'shopify-hmac-sha256');
    if (value === undefined) return invalid('missing X-Shopify-Hmac-Sha256 header');
    const ok = await signatureMatches('sha256', secret, [rawBody], [decodeBase64(value)]);
    return ok ? VALID : invalid('signature mismatch');
  });
}
