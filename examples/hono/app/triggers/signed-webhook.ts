import { defineTrigger } from '@framework/trigger';
import { standardWebhooksVerifier } from '@framework/trigger/verifiers';
import { webhookSecret } from './_webhook-secret.js';
import { demoWebhookKey } from './_webhook-signing.js';

/**
 * POST /webhooks/demo, signed with the Standard Webhooks scheme: headers
 * `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature:
 * v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<raw body>">`, keyed by
 * `WEBHOOK_SECRET` (`demoWebhookKey`). A timestamp more than 5 minutes off is
 * refused (401), and a delivery id already handled within 10 minutes answers
 * 200 `{duplicate: true}` without running the handler, so a captured request
 * cannot be replayed. The ids are remembered in this process (the verifier's
 * memory store); several instances would share a `redisReplayStore`. In
 * production an unset or weak secret stops the app at start-up
 * (`assertWebhookSecret` when the runtime is created; there is no default
 * secret there). See the example's README for a curl example, and
 * `signDemoWebhook` for a sender.
 */
export default defineTrigger({
  source: {
    type: 'webhook',
    path: '/webhooks/demo',
    methods: ['POST'],
    verifier: standardWebhooksVerifier({ secret: demoWebhookKey(webhookSecret()), tolerance: 300 }),
  },
  handle: async (event, ctx) => {
    console.info(`[signed-webhook] received ${JSON.stringify(event.payload)} (trace ${ctx.traceId})`);
  },
});
