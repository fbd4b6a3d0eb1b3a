/**
 * The two workloads of the BullMQ benchmarks: a queue trigger on `bullmqEngine` and a raw BullMQ `Worker`,
 * each draining `total` messages that wait with 5 ms of simulated I/O, under a given key prefix. Both keep a
 * completed job as long (`retention`): by default as the engine keeps it for `send({id})` deduplication and
 * `runtime.getRun(id)`, so both sides do the same Redis work per message. Each reports its rate and the CPU
 * time this process spent per message, both over the steady window from the first handler call to the last
 * handler's return (startup and the last settlement are outside it, on both sides alike), and calls `mark`
 * (when given) once the queue is filled and once it is drained, so a Redis command counter can tell the
 * drain's commands apart.
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

/**
 * How long a completed job stays in Redis: `'engine default'` as `bullmqEngine` keeps it by default
 * (`idempotencyTtl: '24h'`, BullMQ's `removeOnComplete: { age: 86400 }`), or `'none'` (removed when it
 * completes: `removeOnComplete: true`, `idempotencyTtl: '0s'`).
 */
export type Retention = 'engine default' | 'none';

/** Where a workload runs and how it tells its phases apart. */
export interface DrainOptions {
  prefix: string;
  /** Default `'engine default'`. */
  retention?: Retention;
  /** Called after the queue is filled (`'filled'`) and after the last message settled (`'drained'`). */
  mark?: (phase: 'filled' | 'drained') => Promise<void>;
}

/** The raw side's `removeOnComplete` for a retention: the same as the engine's (`bullmqEngine` docs). */
const RAW_REMOVE_ON_COMPLETE = { 'engine default': { age: 86_400 }, none: true } as const;

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

/**
 * The steady window of a drain: from the first handler call (`started()`) to the return of the handler that
 * finished the `total`-th message (`finished()`, which resolves `done`), with this process's CPU over it.
 */
class Window {
  private cpu: NodeJS.CpuUsage | undefined;
  private startedAt = 0;
  private figures: DrainFigures | undefined;
  private resolve!: (figures: DrainFigures) => void;
  readonly done = new Promise<DrainFigures>((resolve) => (this.resolve = resolve));

  constructor(private readonly total: number) {}

  started(): void {
    if (this.cpu) return;
    this.cpu = process.cpuUsage();
    this.startedAt = performance.now();
  }

  finished(): void {
    if (this.figures) return;
    const seconds = (performance.now() - this.startedAt) / 1000;
    const used = process.cpuUsage(this.cpu);
    this.figures = { rate: this.total / seconds, cpuUsPerMessage: (used.user + used.system) / this.total };
    this.resolve(this.figures);
  }
}

/**
 * How the engine consumes: batches of `batchSize`, and `concurrency` batches in flight (`config.concurrency`,
 * unset = one batch at a time) with its `scope` (default `'fleet'`: also BullMQ's global concurrency of the
 * queue). Batch 1 × concurrency N per instance is the per-message form, like a raw Worker at N.
 */
export interface EngineShape {
  batchSize: number;
  concurrency?: number;
  scope?: 'fleet' | 'instance';
}

/** A queue trigger on the BullMQ engine shaped as `shape` that acks every message. */
export async function engineDrain(shape: EngineShape, total: number, options: DrainOptions): Promise<DrainFigures> {
  const { batchSize, concurrency, scope } = shape;
  const window = new Window(total);
  let acked = 0;
  const runtime = createTriggerRuntime({
    env: {},
    engine: bullmqEngine({
      connection: REDIS_URL,
      prefix: options.prefix,
      ...(options.retention === 'none' ? { idempotencyTtl: '0s' } : {}),
    }),
    triggers: {
      consumer: defineTrigger({
        source: { type: 'queue', name: 'bench', batchSize, batchTimeout: '20ms' },
        config: {
          observability: { metrics: false, tracing: false },
          ...(concurrency === undefined ? {} : { concurrency: scope ? { limit: concurrency, scope } : concurrency }),
        },
        handle: async (event) => {
          window.started();
          // The per-message form awaits its one message's I/O as the raw processor does (no array of one).
          await (event.messages.length === 1 ? io() : Promise.all(event.messages.map(io)));
          acked += event.messages.length;
          if (acked >= total) window.finished();
        },
      }),
    },
  });
  try {
    for (let sent = 0; sent < total; sent += 100)
      await runtime.queue('bench').sendBatch(bodies(sent, Math.min(100, total - sent)));
    await options.mark?.('filled');
    await runtime.start();
    const figures = await window.done;
    // The last batch is acked when its handler returns; it settles in Redis while the runtime stops.
    await runtime.stop();
    await options.mark?.('drained');
    return figures;
  } finally {
    await runtime.stop();
  }
}

/** A raw BullMQ Worker at `concurrency` whose processor awaits the simulated I/O. */
export async function rawDrain(concurrency: number, total: number, options: DrainOptions): Promise<DrainFigures> {
  const removeOnComplete = RAW_REMOVE_ON_COMPLETE[options.retention ?? 'engine default'];
  return withClient(async (client) => {
    const queue = new Queue('bench', { connection: client, prefix: options.prefix });
    try {
      for (let sent = 0; sent < total; sent += 100) {
        await queue.addBulk(
          bodies(sent, Math.min(100, total - sent)).map((data) => ({ name: 'm', data, opts: { removeOnComplete } })),
        );
      }
      await options.mark?.('filled');
      const window = new Window(total);
      let processed = 0;
      const worker = new Worker(
        'bench',
        async () => {
          window.started();
          await io();
          if (++processed >= total) window.finished();
        },
        { connection: client, prefix: options.prefix, concurrency },
      );
      const figures = await window.done;
      // Settles the jobs still active (the last ones) before closing.
      await worker.close();
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
