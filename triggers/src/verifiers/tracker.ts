import { decodeHex } from './crypto.js';
import { header, invalid, requireSecret, signatureMatches, VALID, verifier } from './shared.js';
import type { WebhookVerifier } from './types.js';

/** Options of {@link trackerVerifier}. */
export interface TrackerVerifierOptions {
  /** The webhook's signing secret. */
  secret: string;
}

/** How far `webhookTimestamp` may be from now: 60 seconds. */
const TOLERANCE_MS = 60_000;

/**
 * Verifies Linear-style issue tracker webhooks: `Linear-Signature: <hex>`, the
 * HMAC-SHA256 of the raw body, and the JSON body's `webhookTimestamp` (Unix
 * milliseconds) within 60 seconds of now, against replays.
 *
 * @throws {TriggerDefinitionError} at creation when `secret` is empty
 * @example
 * ```ts
 * verifier: trackerVerifier({ secret: env.TRACKER_WEBHOOK_SECRET })
 * ```
 */
export function trackerVerifier(options: TrackerVerifierOptions): WebhookVerifier {
  const secret = requireSecret('trackerVerifier', 'secret', options?.secret);
  return verifier('trackerVerifier', async (request, rawBody) => {
    const value = header(request, 'linear-signature');
    if (value === undefined) return invalid('missing Linear-Signature header');
    if (!(await signatureMatches('sha256', secret, [rawBody], [decodeHex(value)])))
      return invalid('signature mismatch');
    let timestamp: unknown;
    try {
      timestamp = (JSON.parse(new TextDecoder().decode(rawBody)) as { webhookTimestamp?: unknown } | null)
        ?.webhookTimestamp;
    } catch {
      return invalid('body is not JSON');
    }
    if (typeof timestamp !== 'number' || !Number.isFinite(timestamp)) return invalid('missing webhookTimestamp');
    return Math.abs(Date.now() - timestamp) > TOLERANCE_MS
      ? invalid('webhookTimestamp is more than 60s from now')
      : VALID;
  });
}
