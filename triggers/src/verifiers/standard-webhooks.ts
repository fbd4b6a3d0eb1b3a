import { TriggerDefinitionError } from '../errors.js';
import { decodeBase64 } from './crypto.js';
import { checkTimestamp, header, invalid, requireSecret, requireTolerance, signatureMatches, VALID, verifier } from './shared.js';
import type { WebhookVerifier } from './types.js';

/** Options of {@link standardWebhooksVerifier}. */
export interface StandardWebhooksVerifierOptions {
  /** `whsec_<base64 key>` (the prefix is optional). */
  secret: string;
  /** Largest accepted clock difference in seconds. Default 300. */
  tolerance?: number;
}

/**
 * Verifies the Standard Webhooks scheme (standardwebhooks.com): headers
 * `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`
 * (space-separated `v1,<base64>` entries), HMAC-SHA256 of
 * `<id>.<timestamp>.<raw body>` under the base64-decoded secret.
 *
 * @throws {TriggerDefinitionError} at creation when the secret is not base64 or `tolerance` is not positive
 * @example
 * ```ts
 * verifier: standardWebhooksVerifier({ secret: env.WEBHOOK_SIGNING_SECRET })
 * ```
 */
export function standardWebhooksVerifier(options: StandardWebhooksVerifierOptions): WebhookVerifier {
  const secret = requireSecret('standardWebhooksVerifier', 'secret', options?.secret);
  const key = decodeBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  if (!key) throw new TriggerDefinitionError('standardWebhooksVerifier({secret})', 'expected whsec_ followed by base64');
  const tolerance = requireTolerance('standardWebhooksVerifier', options.tolerance, 300);
  return verifier('standardWebhooksVerifier', async (request, rawBody) => {
    const id = header(request, 'webhook-id');
    const timestamp = header(request, 'webhook-timestamp');
    const signatures = header(request, 'webhook-signature');
    if (id === undefined || signatures === undefined) return invalid('missing webhook-id or webhook-signature header');
    const stale = checkTimestamp(timestamp, tolerance);
    if (stale) return invalid(stale);
    const candidates = signatures
      .split(' ')
      .filter((entry) => entry.startsWith('v1,'))
      .map((entry) => decodeBase64(entry.slice(3)));
    if (candidates.length === 0) return invalid('no v1 signature');
    const ok = await signatureMatches('sha256', key, [`${id}.${timestamp}.`, rawBody], candidates);
    return ok ? VALID : invalid('no v1 signature matches');
  });
}
