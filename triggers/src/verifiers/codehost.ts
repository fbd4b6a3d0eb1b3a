import { decodeHex } from './crypto.js';
import type { ReplayStore } from '../replay/store.js';
import {
  header,
  invalid,
  replayOption,
  requireSecret,
  requireTolerance,
  signatureMatches,
  VALID,
  verifier,
  withReplay,
} from './shared.js';
import type { WebhookVerifier } from './types.js';

/** Options of {@link codehostVerifier}. */
export interface CodehostVerifierOptions {
  /** The webhook secret. */
  secret: string;
  /** Accepted `X-GitHub-Event` values; all when omitted. */
  events?: string[];
  /**
   * Where `X-GitHub-Delivery` ids are remembered, so `runtime.fetch` runs a
   * delivery seen twice once and answers the copy 200. Default: a
   * {@link memoryReplayStore} of this verifier; `false` turns it off.
   */
  replay?: ReplayStore | false;
  /** How long a delivery id is remembered, in seconds. Default 300. */
  replayWindow?: number;
}

/**
 * Verifies GitHub-style code host webhooks: header `X-Hub-Signature-256:
 * sha256=<hex>`, HMAC-SHA256 of the raw body. The SHA-1 header is never
 * accepted. With `events`, the `X-GitHub-Event` header must be one of them.
 * When the request has an `X-GitHub-Delivery` id, it is de-duplicated for
 * `replayWindow` seconds through `replay`. GitHub signs only the body, so this
 * stops duplicate deliveries, not an attacker replaying a captured body under
 * a new id (the scheme has no signed timestamp to stop that).
 *
 * @throws {TriggerDefinitionError} at creation when `secret` is empty, `replayWindow` is not positive or
 * `replay` is not a store
 * @example
 * ```ts
 * verifier: codehostVerifier({ secret: env.CODEHOST_WEBHOOK_SECRET, events: ['push', 'pull_request'] })
 * ```
 */
export function codehostVerifier(options: CodehostVerifierOptions): WebhookVerifier {
  const secret = requireSecret('codehostVerifier', 'secret', options?.secret);
  const events = options.events === undefined ? undefined : new Set(options.events);
  const replay = replayOption('codehostVerifier', options.replay);
  const window = requireTolerance('codehostVerifier', options.replayWindow, 300, 'replayWindow');
  const check = verifier('codehostVerifier', async (request, rawBody) => {
    const value = header(request, 'x-hub-signature-256');
    if (value === undefined) return invalid('missing X-Hub-Signature-256 header');
    if (!value.startsWith('sha256=')) return invalid('X-Hub-Signature-256 must start with sha256=');
    if (events) {
      const event = header(request, 'x-github-event');
      if (event === undefined || !events.has(event))
        return invalid(`event ${JSON.stringify(event ?? null)} is not allowed`);
    }
    const ok = await signatureMatches('sha256', secret, [rawBody], [decodeHex(value.slice(7))]);
    return ok ? VALID : invalid('signature mismatch');
  });
  return withReplay(check, replay, window, (request) => header(request, 'x-github-delivery'));
}
