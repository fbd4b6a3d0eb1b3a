import type { ReplayStore } from '../replay/store.js';

/** The outcome of a webhook verifier. `error` says why verification failed (for logs, not for the sender). */
export interface VerificationResult {
  valid: boolean;
  error?: string;
}

/**
 * How `runtime.fetch` de-duplicates the deliveries a verifier accepted: the
 * first request with a given delivery id runs the handler; another within
 * `ttlSeconds` answers 200 without running it. Verifiers whose scheme carries
 * an id set it (Standard Webhooks `webhook-id`, GitHub `X-GitHub-Delivery`).
 */
export interface ReplayPolicy {
  /** Where ids are remembered. */
  readonly store: ReplayStore;
  /** How long an id is remembered, in seconds. */
  readonly ttlSeconds: number;
  /** The delivery id of a request the verifier accepted; `undefined` when it has none (no de-duplication). */
  deliveryId(request: Request): string | undefined;
}

/**
 * Checks a webhook request's signature against its raw body bytes. Verifiers
 * never throw: malformed or missing headers give `{valid: false, error}`.
 * `replay`, when present, asks `runtime.fetch` to de-duplicate accepted
 * deliveries.
 */
export type WebhookVerifier = ((request: Request, rawBody: Uint8Array) => Promise<VerificationResult>) & {
  readonly replay?: ReplayPolicy;
};
