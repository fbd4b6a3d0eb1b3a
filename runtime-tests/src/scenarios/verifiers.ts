/**
 * Every webhook verifier accepts a correctly signed request and refuses the
 * same request with a changed body.
 * @module
 */
import {
  chatVerifier,
  codehostVerifier,
  commerceVerifier,
  customHmacVerifier,
  paymentVerifier,
  standardWebhooksVerifier,
  trackerVerifier,
  verifyWebhook,
  type WebhookVerifier,
} from '@framework/trigger/verifiers';
import { same, type Scenario } from '../scenario.js';
import { base64, hex, hmac, post } from './sign.js';

const URL_ = 'https://app.test/hooks';
const SECRET = 'whsec_runtime-tests';
const KEY = new Uint8Array(24).fill(7);

interface Case {
  verifier: WebhookVerifier;
  /** A signed request for `body`. */
  sign(body: string): Promise<Request>;
}

const now = () => String(Math.floor(Date.now() / 1000));

const cases: Record<string, () => Case> = {
  payment: () => ({
    verifier: paymentVerifier({ secret: SECRET }),
    async sign(body) {
      const t = now();
      return post(URL_, body, { 'stripe-signature': `t=${t},v1=${hex(await hmac(SECRET, `${t}.`, body))}` });
    },
  }),
  codehost: () => ({
    verifier: codehostVerifier({ secret: SECRET, events: ['push'] }),
    async sign(body) {
      return post(URL_, body, {
        'x-hub-signature-256': `sha256=${hex(await hmac(SECRET, body))}`,
        'x-github-event': 'push',
      });
    },
  }),
  chat: () => ({
    verifier: chatVerifier({ signingSecret: SECRET }),
    async sign(body) {
      const t = now();
      return post(URL_, body, {
        'x-slack-signature': `v0=${hex(await hmac(SECRET, `v0:${t}:`, body))}`,
        'x-slack-request-timestamp': t,
      });
    },
  }),
  commerce: () => ({
    verifier: commerceVerifier({ secret: SECRET }),
    async sign(body) {
      return post(URL_, body, { 'x-shopify-hmac-sha256': base64(await hmac(SECRET, body)) });
    },
  }),
  tracker: () => ({
    verifier: trackerVerifier({ secret: SECRET }),
    async sign(body) {
      return post(URL_, body, { 'linear-signature': hex(await hmac(SECRET, body)) });
    },
  }),
  customHmac: () => ({
    verifier: customHmacVerifier({ secret: SECRET, algorithm: 'sha256', header: 'x-signature', prefix: 'sha256=' }),
    async sign(body) {
      return post(URL_, body, { 'x-signature': `sha256=${hex(await hmac(SECRET, body))}` });
    },
  }),
  standardWebhooks: () => ({
    verifier: standardWebhooksVerifier({ secret: `whsec_${base64(KEY)}` }),
    async sign(body) {
      const t = now();
      return post(URL_, body, {
        'webhook-id': 'msg_1',
        'webhook-timestamp': t,
        'webhook-signature': `v1,${base64(await hmac(KEY, `msg_1.${t}.`, body))}`,
      });
    },
  }),
};

const bodyOf = async (request: Request) => new Uint8Array(await request.clone().arrayBuffer());

export const verifierScenarios: Scenario[] = Object.entries(cases).map(([name, make]) => ({
  name: `verifiers: ${name} accepts a signed body and refuses a changed one`,
  async run() {
    const { verifier, sign } = make();
    const body = JSON.stringify({ event: 'ping', webhookTimestamp: Date.now() });
    const signed = await sign(body);
    same(await verifier(signed, await bodyOf(signed)), { valid: true }, 'signed body');
    const changed = new TextEncoder().encode(body.replace('ping', 'pong'));
    same((await verifier(signed, changed)).valid, false, 'changed body');
    await verifyWebhook(verifier, signed.clone());
  },
}));
