import { defineTrigger } from '@framework/trigger';
import { customHmacVerifier } from '@framework/trigger/verifiers';
import { webhookSecret } from './_webhook-secret.js';

/**
 * POST /webhooks/demo, signed with HMAC-SHA256 of the raw body in
 * `x-signature: sha256=<hex>`, with the secret `WEBHOOK_SECRET`. In
 * production an unset or weak secret stops the app at start-up
 * (`assertWebhookSecret` when the runtime is created; there is no default
 * secret there). See triggers/README.md for a curl example.
 */
export default defineTrigger({
  source: {
    type: 'webhook',
    path: '/webhooks/demo',
    methods: ['POST'],
    verifier: customHmacVerifier({
      secret: webhookSecret(),
      algorithm: 'sha256',
      header: 'x-signature',
      prefix: 'sha256=',
    }),
  },
  handle: async (event, ctx) => {
    console.info(`[signed-webhook] received ${JSON.stringify(event.payload)} (trace ${ctx.traceId})`);
  },
});
