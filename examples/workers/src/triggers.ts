/**
 * The example's trigger: a signed webhook that records each event in D1.
 * @module
 */
import { createTriggerRuntime, defineTrigger, type TriggerRuntime } from '@framework/trigger';
import { standardWebhooksVerifier } from '@framework/trigger/verifiers';
import type { WorkerEnv } from './env.js';
import { d1ReplayStore, migrateDeliveries } from './replay-store.js';

/** Where received webhook events go. */
export const EVENTS_TABLE = 'webhook_events';

/**
 * The Standard Webhooks key for `WEBHOOK_SECRET`: a `whsec_<base64>` secret is used as it is; any other string is
 * the key's bytes (UTF-8).
 */
export function webhookKey(secret: string): string {
  if (secret.startsWith('whsec_')) return secret;
  let binary = '';
  for (const byte of new TextEncoder().encode(secret)) binary += String.fromCharCode(byte);
  return `whsec_${btoa(binary)}`;
}

/**
 * The trigger runtime of the Worker: `POST /webhooks/demo`, signed with the Standard Webhooks scheme
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`,
 * keyed by {@link webhookKey}). A timestamp more than 5 minutes off is refused (401); a delivery id already
 * handled answers 200 `{duplicate: true}` without running the handler, remembered in D1 across isolates.
 * @example
 * ```ts
 * app.use('/webhooks/*', mountTriggers(createTriggers(env)));
 * ```
 */
export function createTriggers(env: WorkerEnv): TriggerRuntime {
  const demo = defineTrigger({
    source: {
      type: 'webhook',
      path: '/webhooks/demo',
      verifier: standardWebhooksVerifier({
        secret: webhookKey(env.WEBHOOK_SECRET),
        tolerance: 300,
        replay: d1ReplayStore(env.DB),
      }),
    },
    config: { retries: 0 },
    handle: async (event, ctx) => {
      await env.DB.prepare(`INSERT INTO ${EVENTS_TABLE} (trace_id, payload, received_at) VALUES (?, ?, ?)`)
        .bind(ctx.traceId, JSON.stringify(event.payload), Date.now())
        .run();
    },
  });
  return createTriggerRuntime({ triggers: { demo }, env });
}

/** Creates the events and delivery-id tables; idempotent. */
export async function migrateEvents(env: WorkerEnv): Promise<void> {
  await env.DB.prepare(
    `CREATE TABLE IF NOT EXISTS ${EVENTS_TABLE} (trace_id TEXT NOT NULL, payload TEXT NOT NULL, received_at INTEGER NOT NULL)`,
  ).run();
  await migrateDeliveries(env.DB);
}
