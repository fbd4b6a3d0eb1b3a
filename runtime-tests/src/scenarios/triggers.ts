/**
 * defineTrigger on the memory engine: a signed webhook served by
 * `runtime.fetch`, and a queue consumer receiving a batch.
 * @module
 */
import { createTriggerRuntime, defineTrigger, type QueueEvent } from '@framework/trigger';
import { customHmacVerifier } from '@framework/trigger/verifiers';
import { check, same, type Scenario } from '../scenario.js';
import { hex, hmac, post } from './sign.js';

const SECRET = 'runtime-tests-webhook-secret';

/** Resolves with the first value `register` hands over, or rejects after `ms`. */
function firstValue<T>(ms: number, register: (deliver: (value: T) => void) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nothing arrived within ${ms} ms`)), ms);
    register((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}

export const triggerScenarios: Scenario[] = [
  {
    name: 'triggers: a verified webhook runs its handler; a bad signature gets 401',
    async run() {
      const received: unknown[] = [];
      const runtime = createTriggerRuntime({
        env: {},
        triggers: {
          hook: defineTrigger({
            source: {
              type: 'webhook',
              path: '/hooks/demo',
              verifier: customHmacVerifier({
                secret: SECRET,
                algorithm: 'sha256',
                header: 'x-signature',
                prefix: 'sha256=',
              }),
            },
            handle: async (event) => {
              received.push(event.payload);
            },
          }),
        },
      });
      const body = JSON.stringify({ event: 'ping' });
      const ok = await runtime.fetch(
        post('https://app.test/hooks/demo', body, { 'x-signature': `sha256=${hex(await hmac(SECRET, body))}` }),
      );
      same(ok?.status, 200, 'signed webhook status');
      same(received, [{ event: 'ping' }], 'handler payload');
      const bad = await runtime.fetch(post('https://app.test/hooks/demo', body, { 'x-signature': 'sha256=00' }));
      same(bad?.status, 401, 'bad signature status');
      same(await runtime.fetch(new Request('https://app.test/elsewhere')), null, 'unknown path');
      await runtime.stop();
    },
  },
  {
    name: 'triggers: a queue consumer receives a full batch from the memory engine',
    async run() {
      let deliver: (event: QueueEvent) => void = () => {};
      const runtime = createTriggerRuntime({
        env: {},
        triggers: {
          jobs: defineTrigger({
            source: { type: 'queue', name: 'jobs', batchSize: 2 },
            handle: async (event) => deliver(event),
          }),
        },
      });
      const batch = firstValue<QueueEvent>(5_000, (d) => (deliver = d));
      await runtime.start();
      await runtime.queue('jobs').sendBatch([{ body: { n: 1 } }, { body: { n: 2 } }]);
      const event = await batch;
      same(
        event.messages.map((m) => m.body),
        [{ n: 1 }, { n: 2 }],
        'batch bodies',
      );
      check(
        event.messages.every((m) => m.attempts === 1),
        'first delivery',
      );
      await runtime.drain();
      await runtime.stop();
    },
  },
];
