import { decodeHex } from './crypto.js';
import {
  checkTimestamp,
  header,
  invalid,
  requireSecret,
  requireTolerance,
  signatureMatches,
  VALID,
  verifier,
} from './shared.js';
import type { WebhookVerifier } from './types.js';

/** Options of {@link paymentVerifier}. */
export interface PaymentVerifierOptions {
  /** The endpoint's signing secret, used as is (`whsec_…` prefix included). */
  secret: string;
  /** Largest accepted clock difference in seconds, both directions. Default 300. */
  tolerance?: number;
}

/**
 * Verifies Stripe-style payment webhooks: header `Stripe-Signature:
 * t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, HMAC-SHA256 of `<t>.<raw body>`. Any
 * of several `v1` signatures may match (secret rotation); other schemes (`v0`)
 * are ignored.
 *
 * @throws {TriggerDefinitionError} at creation when `secret` is empty or `tolerance` is not positive
 * @example
 * ```ts
 * defineTrigger({ source: { type: 'webhook', path: '/webhooks/payments', verifier: paymentVerifier({ secret: env.PAYMENT_WEBHOOK_SECRET }) }, handle });
 * ```
 */
export function paymentVerifier(options: PaymentVerifierOptions): WebhookVerifier {
  const secret = requireSecret('paymentVerifier', 'secret', options?.secret);
  const tolerance = requireTolerance('paymentVerifier', options.tolerance, 300);
  return verifier('paymentVerifier', async (request, rawBody) => {
    const value = header(request, 'stripe-signature');
    if (value === undefined) return invalid('missing Stripe-Signature header');
    const timestamps: string[] = [];
    const signatures: Array<Uint8Array | undefined> = [];
    for (const item of value.split(',')) {
      const separator = item.indexOf('=');
      const key = item.slice(0, separator).trim();
      const val = item.slice(separator + 1).trim();
      if (key === 't') timestamps.push(val);
      else if (key === 'v1') signatures.push(decodeHex(val));
    }
    if (timestamps.length !== 1) return invalid('Stripe-Signature needs exactly one t= element');
    if (!signatures.some(Boolean)) return invalid('Stripe-Signature has no well-formed v1 signature');
    const timestamp = timestamps[0]!;
    const stale = checkTimestamp(timestamp, tolerance);
    if (stale) return invalid(stale);
    const ok = await signatureMatches('sha256', secret, [`${timestamp}.`, rawBody], signatures);
    return ok ? VALID : invalid('no v1 signature matches');
  });
}
