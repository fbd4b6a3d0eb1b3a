/**
 * Trigger benchmarks: memory-engine queue throughput through an acking
 * handler, and µs per verifier call. `benchTriggers()` returns the numbers
 * and prints nothing; run this file directly to print them as JSON.
 */
import { createHmac } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { createTriggerRuntime, defineTrigger, memoryEngine, type TriggerRuntime } from '@framework/trigger';
import {
  chatVerifier,
  codehostVerifier,
  commerceVerifier,
  customHmacVerifier,
  paymentVerifier,
  standardWebhooksVerifier,
  trackerVerifier,
  type WebhookVerifier,
} from '@framework/trigger/verifiers';

const SECRET = 'bench-secret';
const hmac = (key: string | Buffer, data: string, encoding: 'hex' | 'base64' = 'hex') =>
  createHmac('sha256', key).update(data).digest(encoding);

/** Messages per second through a consumer that acks every message; `attach` may add a listener (returns its detach). */
export async function queueThroughput(
  batchSize: number,
  total: number,
  attach?: (runtime: TriggerRuntime) => () => void,
): Promise<number> {
  let acked = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const runtime = createTriggerRuntime({
    env: {},
    // The whole backlog is sent before the consumer starts: room for it above the default bound of 10,000.
    engine: memoryEngine({ maxQueueLength: total }),
    triggers: {
      consumer: defineTrigger({
        source: { type: 'queue', name: 'bench', batchSize, batchTimeout: '10ms' },
        config: { observability: { metrics: false, tracing: false } },
        handle: (event) => {
          for (const message of event.messages) message.ack();
          acked += event.messages.length;
          if (acked >= total) done();
        },
      }),
    },
  });
  const detach = attach?.(runtime);
  const producer = runtime.queue('bench');
  for (let sent = 0; sent < total; sent += 100) {
    await producer.sendBatch(
      Array.from({ length: Math.min(100, total - sent) }, (_, i) => ({ body: { n: sent + i } })),
    );
  }
  const started = performance.now();
  await runtime.start();
  await finished;
  const seconds = (performance.now() - started) / 1000;
  await runtime.stop();
  detach?.();
  return total / seconds;
}

/** Builds each verifier with a request it accepts. */
function verifierCases(): Array<[string, WebhookVerifier, Request, Uint8Array]> {
  const now = Math.floor(Date.now() / 1000);
  const body = JSON.stringify({ id: 'evt_1', webhookTimestamp: Date.now(), data: { amount: 4200 } });
  const bytes = new TextEncoder().encode(body);
  const swKey = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');
  const request = (headers: Record<string, string>) =>
    new Request('http://localhost/hook', { method: 'POST', headers });
  return [
    [
      'payment',
      paymentVerifier({ secret: SECRET }),
      request({ 'stripe-signature': `t=${now},v1=${hmac(SECRET, `${now}.${body}`)}` }),
      bytes,
    ],
    [
      'codehost',
      codehostVerifier({ secret: SECRET }),
      request({ 'x-hub-signature-256': `sha256=${hmac(SECRET, body)}` }),
      bytes,
    ],
    [
      'chat',
      chatVerifier({ signingSecret: SECRET }),
      request({
        'x-slack-request-timestamp': String(now),
        'x-slack-signature': `v0=${hmac(SECRET, `v0:${now}:${body}`)}`,
      }),
      bytes,
    ],
    [
      'commerce',
      commerceVerifier({ secret: SECRET }),
      request({ 'x-shopify-hmac-sha256': hmac(SECRET, body, 'base64') }),
      bytes,
    ],
    ['tracker', trackerVerifier({ secret: SECRET }), request({ 'linear-signature': hmac(SECRET, body) }), bytes],
    [
      'customHmac',
      customHmacVerifier({ secret: SECRET, algorithm: 'sha256', header: 'x-signature', prefix: 'sha256=' }),
      request({ 'x-signature': `sha256=${hmac(SECRET, body)}` }),
      bytes,
    ],
    [
      'standardWebhooks',
      standardWebhooksVerifier({ secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
      request({
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(now),
        'webhook-signature': `v1,${hmac(swKey, `msg_1.${now}.${body}`, 'base64')}`,
      }),
      bytes,
    ],
  ];
}

/** Mean µs per call over `calls` calls, after a warm-up. */
async function microsPerCall(
  verifier: WebhookVerifier,
  request: Request,
  body: Uint8Array,
  calls: number,
): Promise<number> {
  for (let i = 0; i < 200; i++) await verifier(request, body);
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    const result = await verifier(request, body);
    if (!result.valid) throw new Error(`benchmark request rejected: ${result.error}`);
  }
  return ((performance.now() - started) * 1000) / calls;
}

/** Runs the trigger benchmarks (a few seconds) and returns named numbers. */
export async function benchTriggers(): Promise<Record<string, number>> {
  const results: Record<string, number> = {};
  await queueThroughput(10, 2_000); // warm-up
  results['queue throughput, batch 10 (messages/s)'] = await queueThroughput(10, 50_000);
  results['queue throughput, batch 100 (messages/s)'] = await queueThroughput(100, 100_000);
  for (const [name, verifier, request, body] of verifierCases()) {
    results[`verifier ${name} (µs/call)`] = await microsPerCall(verifier, request, body, 5_000);
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchTriggers(), null, 2));
}
