/**
 * The example's trigger: a signed webhook that records each event in D1.
 * @module
 */
import { createTriggerRuntime, defineTrigger, type TriggerRuntime } from '@framework/trigger';
import { customHmacVerifier } from '@framework/trigger/verifiers';
import type { WorkerEnv } from './env.js';

/** Where received webhook events go. */
export const EVENTS_TABLE = 'webhook_events';

/**
 * The trigger runtime of the Worker: `POST /webhooks/demo`, verified with
 * `x-signature: sha256=<hex HMAC-SHA256 of the raw body>`.
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
      verifier: customHmacVerifier({
        secret: env.WEBHOOK_SECRET,
        algorithm: 'sha256',
        header: 'x-signature',
        prefix: 'sha256=',
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

/** Creates the events table; idempotent. */
export async function migrateEvents(env: WorkerEnv): Promise<void> {
  await env.DB.prepare(
    `CREATE TABLE IF NOT EXISTS ${EVENTS_TABLE} (trace_id TEXT NOT NULL, payload TEXT NOT NULL, received_at INTEGER NOT NULL)`,
  ).run();
}
