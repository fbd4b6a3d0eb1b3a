import { TriggerDefinitionError } from '../errors.js';
import { decodeBase64 } from './crypto.js';
import type { ReplayStore } from '../replay/store.js';
import {
  checkTimestamp,
  header,
  invalid,
  isDeliveryId,
  replayOption,
  requireSecret,
  requireTolerance,
  signatureMatches,
  VALID,
  verifier,
  withReplay,
} from './shared.js';
import type { WebhookVerifier } from './types.js';

/** Options of {@link standardWebhooksVerifier}. */
export interface StandardWebhooksVerifierOptions {
  /** `whsec_<base64 key>` (the prefix is optional). */
  secret: string;
  /** Largest accepted clock difference in seconds. Default 300. */
  tolerance?: number;
  /**
   * Where verified `webhook-id`s are remembered, for twice the tolerance (a
   * timestamp may be early or late by `tolerance`), so `runtime.fetch` runs
   * a redelivered or replayed message once and answers the copy 200.
   * Default: a {@link memoryReplayStore} of this verifier; `false` turns
   * de-duplication off.
   */
  replay?: ReplayStore | false;
}

/**
 * Verifies the Standard Webhooks scheme (standardwebhooks.com): headers
 * `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature`
 * (space-separated `v1,<base64>` entries), HMAC-SHA256 of
 * `<id>.<timestamp>.<raw body>` under the base64-decoded secret. The
 * signed `webhook-id` (at most 256 visible ASCII characters) is
 * de-duplicated within the tolerance window through `replay`.
 *
 * @throws {TriggerDefinitionError} at creation when the secret is not base64, `tolerance` is not positive or
 * `replay` is not a store
 * @example
 * ```ts
 * verifier: standardWebhooksVerifier({ secret: env.WEBHOOK_SIGNING_SECRET })
 * ```
 */
export function standardWebhooksVerifier(options: StandardWebhooksVerifierOptions): WebhookVerifier {
  const secret = requireSecret('standardWebhooksVerifier', 'secret', options?.secret);
  const key = decodeBase64(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  if (!key)
    throw new TriggerDefinitionError('standardWebhooksVerifier({secret})', 'expected whsec_ followed by base64');
  const tolerance = requireTolerance('standardWebhooksVerifier', options.tolerance, 300);
  const replay = replayOption('standardWebhooksVerifier', options.replay);
  const check = verifier('standardWebhooksVerifier', async (request, rawBody) => {
    const id = header(request, 'webhook-id');
    const timestamp = header(request, 'webhook-timestamp');
    const signatures = header(request, 'webhook-signature');
    if (id === undefined || signatures === undefined) return invalid('missing webhook-id or webhook-signature header');
    if (!isDeliveryId(id)) return invalid('malformed webhook-id');
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
  return withReplay(check, replay, 2 * tolerance, (request) => header(request, 'webhook-id'));
}
