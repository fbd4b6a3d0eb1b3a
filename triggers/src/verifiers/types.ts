/** The outcome of a webhook verifier. `error` says why verification failed (for logs, not for the sender). */
export interface VerificationResult {
  valid: boolean;
  error?: string;
}

/**
 * Checks a webhook request's signature against its raw body bytes. Verifiers
 * never throw: malformed or missing headers give `{valid: false, error}`.
 */
export type WebhookVerifier = (request: Request, rawBody: Uint8Array) => Promise<VerificationResult>;
