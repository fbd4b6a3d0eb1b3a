/**
 * The part of a trigger runtime (`createTriggerRuntime` from `@framework/trigger`) that the framework adapters use
 * to serve webhooks: structural, so no adapter depends on the trigger package. One home for every adapter.
 * @module
 */

/** What an adapter needs of a trigger runtime to serve its webhooks. */
export interface WebhookRuntime {
  /** Serves a webhook request; resolves null when no webhook trigger owns the path. */
  fetch(request: Request): Promise<Response | null>;
  /**
   * The webhook routes. Adapters that route by path register them (Fastify needs them); others send requests to
   * other paths straight on with their body unread. Without it every request is offered to `fetch`, which reads
   * the bodies it does not claim.
   */
  readonly webhooks?: ReadonlyArray<{ readonly path: string }>;
  /** Reports a request to tail triggers. */
  recordRequest?(log: { method: string; url: string; status: number; durationMs: number }): void;
}
