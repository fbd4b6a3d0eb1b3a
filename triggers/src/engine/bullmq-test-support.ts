/** Test support for the BullMQ engine: isolated prefixes on the test Redis and their removal. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { expect } from 'vitest';
import { eventually } from './conformance.js';
import { bullmqEngine } from './bullmq.js';
import { memoryEngine } from './memory.js';
import type { TriggerEngine } from './types.js';
import { defineTrigger } from '../define.js';
import { createTriggerRuntime } from '../runtime/create.js';
import type { QueueEvent, QueueSource, TriggerConfig } from '../types.js';
import { createClient } from 'redis';
import { REDIS_URL } from '../../../test-support/services.js';

export { REDIS_URL };

/** A fresh key prefix for one test. */
export function testPrefix(): string {
  return `trigger-test-${randomBytes(5).toString('hex')}`;
}

/** Deletes every key under `prefix`. */
export async function deletePrefix(prefix: string): Promise<void> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  try {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 500 })) keys.push(...batch);
    for (let i = 0; i < keys.length; i += 500) await client.del(keys.slice(i, i + 500));
  } finally {
    await client.quit();
  }
}

/**
 * A runtime on the BullMQ engine under `prefix` with one queue trigger on queue `jobs` (`source` and `config`
 * added to it; metrics and tracing off).
 */
export function jobsRuntime(
  prefix: string,
  source: Omit<QueueSource, 'type' | 'name'>,
  config: TriggerConfig,
  handle: (event: QueueEvent) => Promise<void>,
) {
  return createTriggerRuntime({
    env: {},
    engine: bullmqEngine({ connection: REDIS_URL, prefix }),
    triggers: {
      jobs: defineTrigger({
        source: { type: 'queue', name: 'jobs', ...source },
        config: { observability: { metrics: false, tracing: false }, ...config },
        handle,
      }),
    },
  });
}

/** A runtime in a child process that prints one JSON object per line. */
export interface ChildRuntime {
  process: ChildProcess;
  lines: Array<Record<string, unknown>>;
  exited: Promise<void>;
}

/**
 * Starts `script` (a TypeScript fixture, run with tsx) with `config` as JSON in `CHILD_CONFIG` (plus
 * `redisUrl`), collects its JSON lines, and resolves once it printed `{"ready": true}` (or exited).
 */
export async function startChild(script: string, config: Record<string, unknown>): Promise<ChildRuntime> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, CHILD_CONFIG: JSON.stringify({ redisUrl: REDIS_URL, ...config }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Array<Record<string, unknown>> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // not ours
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A child may exit before it prints `ready`: a poison message delivered while start() still runs kills it.
  let gone = false;
  void exited.then(() => (gone = true));
  await eventually(() => {
    if (!gone) expect(lines).toContainEqual({ ready: true });
  }, 15_000);
  return { process: child, lines, exited };
}

/** Sends `signal` (SIGTERM: a clean stop) unless the child already exited, and waits for its exit. */
export async function stopChild(child: ChildRuntime, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill(signal);
  await child.exited;
}

/** An engine for one test and its cleanup. */
export type EngineCase = [
  name: string,
  available: boolean,
  make: () => { engine: TriggerEngine; cleanup: () => Promise<void> },
];

/** The memory engine, and a BullMQ engine on a fresh prefix (available when `redisUp`), for `describe.each`. */
export function engineCases(redisUp: boolean): EngineCase[] {
  return [
    ['memory', true, () => ({ engine: memoryEngine(), cleanup: async () => {} })],
    [
      'bullmq',
      redisUp,
      () => {
        const prefix = testPrefix();
        return { engine: bullmqEngine({ connection: REDIS_URL, prefix }), cleanup: () => deletePrefix(prefix) };
      },
    ],
  ];
}
