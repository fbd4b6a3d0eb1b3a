/**
 * BullMQ engine benchmark: messages per second through a queue trigger on
 * `bullmqEngine` (batch sizes 10 and 100) beside a raw BullMQ `Worker` with a
 * no-op processor, on the same Redis (REDIS_URL, default 127.0.0.1:6379), in
 * one run. `benchBullmq()` returns the numbers and prints nothing; run this
 * file directly to print them as JSON. Goal: the engine keeps ≥ 80 % of raw.
 */
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { bullmqEngine, createTriggerRuntime, defineTrigger } from '@framework/trigger';
import { Queue, Worker } from 'bullmq';
import { createClient } from 'redis';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function withClient<T>(use: (client: ReturnType<typeof createClient>) => Promise<T>): Promise<T> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.quit();
  }
}

async function deletePrefix(prefix: string): Promise<void> {
  await withClient(async (client) => {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) if (keys.length > 0) await client.del(keys);
  });
}

const bodies = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ body: { n: from + i } }));

/** Messages per second through a queue trigger on the BullMQ engine that acks every message. */
async function engineThroughput(batchSize: number, total: number): Promise<number> {
  const prefix = `bench-bullmq-${randomBytes(4).toString('hex')}`;
  let acked = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const runtime = createTriggerRuntime({
    env: {},
    engine: bullmqEngine({ connection: REDIS_URL, prefix }),
    triggers: {
      consumer: defineTrigger({
        source: { type: 'queue', name: 'bench', batchSize, batchTimeout: '20ms' },
        config: { observability: { metrics: false, tracing: false } },
        handle: (event) => {
          acked += event.messages.length;
          if (acked >= total) done();
        },
      }),
    },
  });
  try {
    for (let sent = 0; sent < total; sent += 100) await runtime.queue('bench').sendBatch(bodies(sent, Math.min(100, total - sent)));
    const started = performance.now();
    await runtime.start();
    await finished;
    const seconds = (performance.now() - started) / 1000;
    return total / seconds;
  } finally {
    await runtime.stop();
    await deletePrefix(prefix);
  }
}

/** Jobs per second through a raw BullMQ Worker whose processor does nothing. */
async function rawThroughput(total: number): Promise<number> {
  const prefix = `bench-bullmq-${randomBytes(4).toString('hex')}`;
  return withClient(async (client) => {
    const queue = new Queue('bench', { connection: client, prefix });
    try {
      for (let sent = 0; sent < total; sent += 100) {
        await queue.addBulk(bodies(sent, Math.min(100, total - sent)).map((data) => ({ name: 'm', data, opts: { removeOnComplete: true } })));
      }
      let completed = 0;
      let done!: () => void;
      const finished = new Promise<void>((resolve) => (done = resolve));
      const started = performance.now();
      const worker = new Worker('bench', async () => {}, { connection: client, prefix });
      worker.on('completed', () => {
        if (++completed >= total) done();
      });
      await finished;
      const seconds = (performance.now() - started) / 1000;
      await worker.close();
      return total / seconds;
    } finally {
      await queue.close();
      await deletePrefix(prefix);
    }
  });
}

/** Runs the BullMQ benchmarks (about 10–20 s) and returns named numbers. */
export async function benchBullmq(): Promise<Record<string, number>> {
  const total = 4_000;
  await engineThroughput(10, 500); // warm-up
  await rawThroughput(500);
  const raw = await rawThroughput(total);
  const batch10 = await engineThroughput(10, total);
  const batch100 = await engineThroughput(100, total);
  return {
    'raw BullMQ Worker (jobs/s)': raw,
    'bullmq engine, batch 10 (messages/s)': batch10,
    'bullmq engine, batch 100 (messages/s)': batch100,
    'bullmq engine, batch 10 (% of raw)': (batch10 / raw) * 100,
    'bullmq engine, batch 100 (% of raw)': (batch100 / raw) * 100,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchBullmq(), null, 2));
  process.exit(0);
}
