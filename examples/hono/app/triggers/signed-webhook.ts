import { defineTrigger } from '@framework/trigger';
import { customHmacVerifier } from '@framework/trigger/verifiers';

/**
 * POST /webhooks/demo, signed with HMAC-SHA256 of the raw body in
 * `x-signature: sha256=<hex>`. See triggers/README.md for a curl example.
 */
export default defineTrigger({
  source: {
    type: 'webhook',
    path: '/webhooks/demo',
    methods: ['POST'],
    verifier: customHmacVerifier({
      secret: process.env.WEBHOOK_SECRET ?? 'dev-webhook-secret',
      algorithm: 'sha256',
      header: 'x-signature',
      prefix: 'sha256=',
    }),
  },
  handle: async (event, ctx) => {
    console.info(`[signed-webhook] received ${JSON.stringify(event.payload)} (trace ${ctx.traceId})`);
  },
});
