/**
 * BullMQ engine benchmark, made fair: messages per second through a queue
 * trigger on `bullmqEngine` beside a raw BullMQ `Worker` at the same
 * concurrency (batch 10 vs `concurrency: 10`, batch 100 vs `concurrency:
 * 100`), both doing 5 ms of simulated I/O per message (the engine's handler
 * awaits its batch's I/O together, as the raw worker overlaps its jobs), on
 * the same Redis (REDIS_URL, default 127.0.0.1:6379). Each figure runs in its
 * own child process so its peak RSS is its own. `benchBullmq()` returns the
 * numbers and prints nothing; run this file directly to print them as JSON.
 * Goal: the engine keeps ≥ 90 % of raw at equal concurrency.
 */
import { spawn } from 'node:child_process';
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
    for await (const keys of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 }))
      if (keys.length > 0) await client.del(keys);
  });
}

const bodies = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ body: { n: from + i } }));

/** Simulated I/O of one message, in ms. */
const IO_MS = 5;
const io = () => new Promise<void>((resolve) => setTimeout(resolve, IO_MS));

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
        handle: async (event) => {
          await Promise.all(event.messages.map(io));
          acked += event.messages.length;
          if (acked >= total) done();
        },
      }),
    },
  });
  try {
    for (let sent = 0; sent < total; sent += 100)
      await runtime.queue('bench').sendBatch(bodies(sent, Math.min(100, total - sent)));
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

/** Jobs per second through a raw BullMQ Worker at `concurrency` whose processor awaits 5 ms. */
async function rawThroughput(concurrency: number, total: number): Promise<number> {
  const prefix = `bench-bullmq-${randomBytes(4).toString('hex')}`;
  return withClient(async (client) => {
    const queue = new Queue('bench', { connection: client, prefix });
    try {
      for (let sent = 0; sent < total; sent += 100) {
        await queue.addBulk(
          bodies(sent, Math.min(100, total - sent)).map((data) => ({
            name: 'm',
            data,
            opts: { removeOnComplete: true },
          })),
        );
      }
      let completed = 0;
      let done!: () => void;
      const finished = new Promise<void>((resolve) => (done = resolve));
      const started = performance.now();
      const worker = new Worker('bench', io, { connection: client, prefix, concurrency });
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

type Case = { kind: 'raw' | 'engine'; width: number; total: number };

/** Runs one case in this process: its rate and the process's peak RSS in MB. */
async function runCase(c: Case): Promise<{ rate: number; peakRssMb: number }> {
  const rate = c.kind === 'raw' ? await rawThroughput(c.width, c.total) : await engineThroughput(c.width, c.total);
  return { rate, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

/** Runs one case in a child process (same loader flags), so its peak RSS is its own. */
function inChild(c: Case): Promise<{ rate: number; peakRssMb: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, new URL(import.meta.url).pathname], {
      env: { ...process.env, BENCH_BULLMQ_CASE: JSON.stringify(c) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code === 0) resolve(JSON.parse(line) as { rate: number; peakRssMb: number });
      else reject(new Error(`bench case ${JSON.stringify(c)} exited with ${code}`));
    });
  });
}

/** Runs the BullMQ benchmarks (about 30–60 s) and returns named numbers. */
export async function benchBullmq(): Promise<Record<string, number>> {
  const total = 4_000;
  const results: Record<string, number> = {};
  for (const width of [10, 100]) {
    await inChild({ kind: 'engine', width, total: 500 }); // warm-up (Redis, scripts)
    const raw = await inChild({ kind: 'raw', width, total });
    const engine = await inChild({ kind: 'engine', width, total });
    results[`raw BullMQ Worker, concurrency ${width} (jobs/s)`] = raw.rate;
    results[`raw BullMQ Worker, concurrency ${width} (peak RSS MB)`] = raw.peakRssMb;
    results[`bullmq engine, batch ${width} (messages/s)`] = engine.rate;
    results[`bullmq engine, batch ${width} (peak RSS MB)`] = engine.peakRssMb;
    results[`bullmq engine, batch ${width} (% of raw at equal concurrency)`] = (engine.rate / raw.rate) * 100;
  }
  return results;
}

if (process.env.BENCH_BULLMQ_CASE) {
  console.log(JSON.stringify(await runCase(JSON.parse(process.env.BENCH_BULLMQ_CASE) as Case)));
  process.exit(0);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.log(JSON.stringify(await benchBullmq(), null, 2));
  process.exit(0);
}
