import { decodeHex } from './crypto.js';
import { header, invalid, requireSecret, signatureMatches, VALID, verifier } from './shared.js';
import type { WebhookVerifier } from './types.js';

/** Options of {@link codehostVerifier}. */
export interface CodehostVerifierOptions {
  /** The webhook secret. */
  secret: string;
  /** Accepted `X-GitHub-Event` values; all when omitted. */
  events?: string[];
}

/**
 * Verifies GitHub-style code host webhooks: header `X-Hub-Signature-256:
 * sha256=<hex>`, HMAC-SHA256 of the raw body. The SHA-1 header is never
 * accepted. With `events`, the `X-GitHub-Event` header must be one of them.
 *
 * @throws {TriggerDefinitionError} at creation when `secret` is empty
 * @example
 * ```ts
 * verifier: codehostVerifier({ secret: env.CODEHOST_WEBHOOK_SECRET, events: ['push', 'pull_request'] })
 * ```
 */
export function codehostVerifier(options: CodehostVerifierOptions): WebhookVerifier {
  const secret = requireSecret('codehostVerifier', 'secret', options?.secret);
  const events = options.events === undefined ? undefined : new Set(options.events);
  return verifier('codehostVerifier', async (request, rawBody) => {
    const value = header(request, 'x-hub-signature-256');
    if (value === undefined) return invalid('missing X-Hub-Signature-256 header');
    if (!value.startsWith('sha256=')) return invalid('X-Hub-Signature-256 must start with sha256=');
    if (events) {
      const event = header(request, 'x-github-event');
      if (event === undefined || !events.has(event)) return invalid(`event ${JSON.stringify(event ?? null)} is not allowed`);
    }
    const ok = await signatureMatches('sha256', secret, [rawBody], [decodeHex(value.slice(7))]);
    return ok ? VALID : invalid('signature mismatch');
  });
}
