/**
 * The two workloads of the BullMQ benchmarks: a queue trigger on `bullmqEngine` and a raw BullMQ `Worker`,
 * each draining `total` messages that wait with 5 ms of simulated I/O, under a given key prefix. Each reports
 * its rate and the CPU time this process spent per message while draining (`process.cpuUsage`, user + system),
 * and calls `mark` (when given) once the queue is filled and once it is drained, so a Redis command counter can
 * tell the drain's commands apart.
 */
import { spawn } from 'node:child_process';
import { bullmqEngine, createTriggerRuntime, defineTrigger } from '@framework/trigger';
import { Queue, Worker } from 'bullmq';
import { createClient } from 'redis';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** What one drain measured: messages per second and CPU µs per message of this process. */
export interface DrainFigures {
  rate: number;
  cpuUsPerMessage: number;
}

/** Where a workload runs and how it tells its phases apart. */
export interface DrainOptions {
  prefix: string;
  /** Called after the queue is filled (`'filled'`) and after the last message settled (`'drained'`). */
  mark?: (phase: 'filled' | 'drained') => Promise<void>;
}

export async function withClient<T>(use: (client: ReturnType<typeof createClient>) => Promise<T>): Promise<T> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.quit();
  }
}

export async function deletePrefix(prefix: string): Promise<void> {
  await withClient(async (client) => {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 }))
      if (keys.length > 0) await client.del(keys);
  });
}

const bodies = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ body: { n: from + i } }));

/** Simulated I/O of one message, in ms. */
const IO_MS = 5;
const io = () => new Promise<void>((resolve) => setTimeout(resolve, IO_MS));

/** Times a drain: wall clock and this process's CPU from `start()` until `finished` resolves. */
async function timed(total: number, start: () => Promise<void>, finished: Promise<void>): Promise<DrainFigures> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await start();
  await finished;
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { rate: total / seconds, cpuUsPerMessage: (used.user + used.system) / total };
}

/**
 * How the engine consumes: batches of `batchSize`, and `concurrency` batches in flight (`config.concurrency`,
 * unset = one batch at a time). Batch 1 × concurrency N is the per-message form, like a raw Worker at N.
 */
export interface EngineShape {
  batchSize: number;
  concurrency?: number;
}

/** A queue trigger on the BullMQ engine shaped as `shape` that acks every message. */
export async function engineDrain(shape: EngineShape, total: number, options: DrainOptions): Promise<DrainFigures> {
  const { batchSize, concurrency } = shape;
  let acked = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  const runtime = createTriggerRuntime({
    env: {},
    engine: bullmqEngine({ connection: REDIS_URL, prefix: options.prefix }),
    triggers: {
      consumer: defineTrigger({
        source: { type: 'queue', name: 'bench', batchSize, batchTimeout: '20ms' },
        config: {
          observability: { metrics: false, tracing: false },
          ...(concurrency === undefined ? {} : { concurrency }),
        },
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
    await options.mark?.('filled');
    // The last batch is acked when its handler returns; it settles in Redis while the runtime stops.
    const figures = await timed(total, () => runtime.start(), finished);
    await runtime.stop();
    await options.mark?.('drained');
    return figures;
  } finally {
    await runtime.stop();
  }
}

/** A raw BullMQ Worker at `concurrency` whose processor awaits the simulated I/O. */
export async function rawDrain(concurrency: number, total: number, options: DrainOptions): Promise<DrainFigures> {
  return withClient(async (client) => {
    const queue = new Queue('bench', { connection: client, prefix: options.prefix });
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
      await options.mark?.('filled');
      let completed = 0;
      let done!: () => void;
      const finished = new Promise<void>((resolve) => (done = resolve));
      let worker: Worker | undefined;
      const figures = await timed(
        total,
        async () => {
          worker = new Worker('bench', io, { connection: client, prefix: options.prefix, concurrency });
          worker.on('completed', () => {
            if (++completed >= total) done();
          });
        },
        finished,
      );
      await worker!.close();
      await options.mark?.('drained');
      return figures;
    } finally {
      await queue.close();
    }
  });
}

/**
 * Runs `script` again in a child process (same loader flags) with `c` as JSON in the environment variable
 * `envVar`, so its CPU time and peak RSS are its own, and resolves with the JSON of its last stdout line.
 */
export function inChild<R>(script: string, envVar: string, c: object): Promise<R> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, new URL(script).pathname], {
      env: { ...process.env, [envVar]: JSON.stringify(c) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const line = out.trim().split('\n').at(-1) ?? '';
      if (code === 0) resolve(JSON.parse(line) as R);
      else reject(new Error(`bench case ${JSON.stringify(c)} exited with ${code}`));
    });
  });
}
