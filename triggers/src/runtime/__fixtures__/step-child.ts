/**
 * A runtime on the BullMQ engine in its own process, for the durable-step
 * process tests. CHILD_CONFIG is `{redisUrl, prefix}`. Prints one JSON line
 * per step run (`{"step", "orderId"}`), wait reached (`{"waiting"}`) and run
 * finished (`{"finished", "paid"}`); `{"ready": true}` once started. Order 1
 * dies (SIGKILL) between its first two steps on its first delivery.
 */
import { bullmqEngine } from '../../engine/bullmq.js';
import { defineTrigger } from '../../define.js';
import { createTriggerRuntime } from '../create.js';

const config = JSON.parse(process.env.CHILD_CONFIG ?? '{}') as { redisUrl: string; prefix: string };
const print = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);

interface Order {
  orderId: number;
  timeout: `${number}s`;
  /** Sleep instead of waiting for payment. */
  nap?: boolean;
}

const runtime = createTriggerRuntime({
  name: 'steps',
  env: {},
  triggers: {
    orders: defineTrigger({
      source: { type: 'queue', name: 'orders', batchSize: 1, batchTimeout: '20ms' },
      config: {
        retries: 3,
        observability: { metrics: false, tracing: false },
        cancelOn: [{ event: 'order.cancelled', match: 'orderId' }],
      },
      handle: async (event, ctx) => {
        const message = event.messages[0]!;
        const order = message.body as Order;
        await ctx.step.run('reserve', () => print({ step: 'reserve', orderId: order.orderId }));
        if (order.orderId === 1 && message.attempts === 1) process.kill(process.pid, 'SIGKILL');
        print({ waiting: order.orderId });
        let paid: unknown = null;
        if (order.nap) await ctx.step.sleep('nap', '1h');
        else
          paid = await ctx.step.waitForEvent('paid', { event: 'order.paid', match: 'orderId', timeout: order.timeout });
        await ctx.step.run('ship', () => print({ step: 'ship', orderId: order.orderId }));
        print({ finished: order.orderId, paid: (paid as { data?: unknown } | null)?.data ?? null });
      },
    }),
  },
  engine: bullmqEngine({
    connection: config.redisUrl,
    prefix: config.prefix,
    lockDuration: '1s',
    stalledInterval: '500ms',
  }),
});
await runtime.start();
print({ ready: true });
process.on('SIGTERM', () => {
  void runtime.stop({ timeout: '2s' }).finally(() => process.exit(0));
});
