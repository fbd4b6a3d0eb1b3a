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

/** Options of {@link chatVerifier}. */
export interface ChatVerifierOptions {
  /** The app's signing secret. */
  signingSecret: string;
  /** Largest accepted clock difference in seconds. Default 300. */
  tolerance?: number;
}

/**
 * Verifies Slack-style chat requests: `X-Slack-Signature: v0=<hex>`, the
 * HMAC-SHA256 of `v0:<X-Slack-Request-Timestamp>:<raw body>`, with the
 * timestamp within `tolerance` seconds.
 *
 * @throws {TriggerDefinitionError} at creation when `signingSecret` is empty or `tolerance` is not positive
 * @example
 * ```ts
 * verifier: chatVerifier({ signingSecret: env.CHAT_SIGNING_SECRET })
 * ```
 */
export function chatVerifier(options: ChatVerifierOptions): WebhookVerifier {
  const secret = requireSecret('chatVerifier', 'signingSecret', options?.signingSecret);
  const tolerance = requireTolerance('chatVerifier', options.tolerance, 300);
  return verifier('chatVerifier', async (request, rawBody) => {
    const signature = header(request, 'x-slack-signature');
    if (signature === undefined) return invalid('missing X-Slack-Signature header');
    if (!signature.startsWith('v0=')) return invalid('X-Slack-Signature must start with v0=');
    const timestamp = header(request, 'x-slack-request-timestamp');
    const stale = checkTimestamp(timestamp, tolerance);
    if (stale) return invalid(stale);
    const ok = await signatureMatches('sha256', secret, [`v0:${timestamp}:`, rawBody], [decodeHex(signature.slice(3))]);
    return ok ? VALID : invalid('signature mismatch');
  });
}
