/**
 * A runtime on the BullMQ engine in its own process, for the fleet-wide limit tests. Configured by the
 * JSON in CHILD_CONFIG (`redisUrl`, `prefix`, `mode`). Each handler counts itself in a Redis counter shared
 * by every process while it runs and prints `{"running": n, "key"?}` with the count it saw, then
 * `{"done": id}`; `{"ready": true}` once started. SIGTERM stops the runtime and exits.
 */
import { createClient } from 'redis';
import { bullmqEngine } from '../../engine/bullmq.js';
import { defineTrigger } from '../../define.js';
import { createTriggerRuntime } from '../create.js';
import type { TriggerDefinition } from '../../types.js';

interface ChildConfig {
  redisUrl: string;
  prefix: string;
  mode: 'concurrency' | 'key' | 'key-instance' | 'emit-concurrency' | 'emit-instance' | 'throttle';
}

const config = JSON.parse(process.env.CHILD_CONFIG ?? '{}') as ChildConfig;
const print = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);
const quiet = { observability: { metrics: false, tracing: false } } as const;
const redis = createClient({ url: config.redisUrl });
await redis.connect();

/** Counts the run in the shared counter of `key` while it holds for a moment of I/O. */
async function counted(id: string, key = 'all'): Promise<void> {
  const counter = `${config.prefix}:test:running:${key}`;
  const running = await redis.incr(counter);
  print({ running, key });
  await new Promise((resolve) => setTimeout(resolve, 25));
  await redis.decr(counter);
  print({ done: id });
}

/** Handlers of this process running now. */
let local = 0;

/**
 * Counts the run in the shared counter and in this process, then waits (up to 1 s) until a run of another
 * process is counted too, and prints the shared count it last read and this process's count then:
 * `{"running": n, "local": m}`, then `{"done": id}`.
 */
async function meetsAnother(id: string): Promise<void> {
  const counter = `${config.prefix}:test:running:all`;
  local++;
  let running = await redis.incr(counter);
  const until = Date.now() + 1_000;
  while (running < 2 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    running = Number(await redis.get(counter));
  }
  print({ running, local });
  await redis.decr(counter);
  local--;
  print({ done: id });
}

const queueBody = (event: { messages: Array<{ id: string; body: unknown }> }) => event.messages[0]!;

/** A queue trigger keyed by the message's tenant, with `concurrency` when given. */
const keyed = (concurrency?: { limit: number; scope: 'instance' }) =>
  defineTrigger({
    source: { type: 'queue', name: 'work', batchSize: 1, batchTimeout: '0ms' },
    config: {
      ...quiet,
      ...(concurrency ? { concurrency } : {}),
      concurrencyKey: (event) => (queueBody(event).body as { tenant: string }).tenant,
    },
    handle: (event) => counted(queueBody(event).id, (queueBody(event).body as { tenant: string }).tenant),
  });

const modes: Record<ChildConfig['mode'], Record<string, TriggerDefinition<any, any>>> = {
  concurrency: {
    work: defineTrigger({
      source: { type: 'queue', name: 'work', batchSize: 1, batchTimeout: '0ms' },
      config: { ...quiet, concurrency: 1 },
      handle: (event) => counted(queueBody(event).id),
    }),
  },
  key: { work: keyed() },
  'key-instance': { work: keyed({ limit: 4, scope: 'instance' }) },
  'emit-concurrency': {
    mail: defineTrigger({
      source: { type: 'email' },
      config: { ...quiet, concurrency: 1 },
      handle: (event) => counted(String((event as unknown as { n: number }).n)),
    }),
  },
  'emit-instance': {
    mail: defineTrigger({
      source: { type: 'email' },
      config: { ...quiet, concurrency: { limit: 1, scope: 'instance' } },
      handle: (event) => meetsAnother(String((event as unknown as { n: number }).n)),
    }),
  },
  throttle: {
    work: defineTrigger({
      source: { type: 'queue', name: 'work', batchSize: 1, batchTimeout: '0ms' },
      config: { ...quiet, throttle: { limit: 2, window: '1h' } },
      handle: (event) => counted(queueBody(event).id),
    }),
  },
};

const runtime = createTriggerRuntime({
  name: 'fleet',
  env: {},
  engine: bullmqEngine({ connection: config.redisUrl, prefix: config.prefix }),
  triggers: modes[config.mode],
});
await runtime.start();
print({ ready: true });
process.once('SIGTERM', () => {
  void runtime
    .stop({ timeout: '2s' })
    .then(() => redis.quit())
    .finally(() => process.exit(0));
});
