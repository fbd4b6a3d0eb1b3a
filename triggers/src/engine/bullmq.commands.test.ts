/**
 * Redis commands per message: a plain queue trigger on `bullmqEngine` (no limits, nobody waiting for results)
 * sends about as many commands as a raw BullMQ `Worker` draining the same messages at the same concurrency.
 * Counted with MONITOR on the test Redis: every command a client sent that names the test's key prefix, between
 * two ECHO marks around the drain (start and stop included), so other users of the same Redis do not count.
 * Command counts do not depend on the machine's load, unlike wall-clock figures.
 */
import { Queue, Worker } from 'bullmq';
import { createClient } from 'redis';
import { describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { createTriggerRuntime } from '../runtime/create.js';
import { bullmqEngine } from './bullmq.js';
import { deletePrefix, REDIS_URL, testPrefix } from './bullmq-test-support.js';
import { eventually } from './conformance.js';

const redisUp = await serviceAvailable('redis');

const MESSAGES = 200;
/**
 * What the engine may send beyond the raw worker, in all: the first batch is fetched one job per command (a
 * raw worker fetches its first `WIDTH` jobs the same way), and so is the batch fetched ahead while the first
 * handler runs; after that, each ack fetches the next job in its own command, as the raw worker does. Ten
 * more cover start and stop (global-concurrency reset, stalled check, the last blocking fetch). A settle
 * without fetching (two commands per message) exceeds it by about `MESSAGES`.
 */
const allowance = (width: number) => 2 * width + 10;

/** Drains `MESSAGES` at `width` (batch size, or the raw worker's concurrency) under `prefix`, marking phases. */
type Drain = (width: number, prefix: string, mark: (phase: string) => Promise<unknown>) => Promise<void>;

/** Commands clients sent naming `prefix` while `drain` ran (between its `filled` and `drained` marks). */
async function countCommands(drain: Drain, width: number): Promise<number> {
  const prefix = testPrefix();
  const monitor = createClient({ url: REDIS_URL });
  const marker = createClient({ url: REDIS_URL });
  await Promise.all([monitor.connect(), marker.connect()]);
  let counting = false;
  let count = 0;
  let over = false;
  await monitor.monitor((line: string) => {
    if (!line.includes(prefix)) return;
    if (line.includes(`"${prefix}:filled"`)) counting = true;
    else if (line.includes(`"${prefix}:drained"`)) over = true;
    // Commands Lua scripts run inside Redis show as `[0 lua]`: they are part of the command that ran the script.
    else if (counting && !over && !line.includes(' lua]')) count++;
  });
  try {
    await drain(width, prefix, (phase) => marker.echo(`${prefix}:${phase}`));
    await eventually(() => expect(over).toBe(true));
    return count;
  } finally {
    await Promise.all([monitor.destroy(), marker.destroy()]);
    await deletePrefix(prefix);
  }
}

const bodies = () => Array.from({ length: MESSAGES }, (_, n) => ({ body: { n } }));

const rawDrain: Drain = async (width, prefix, mark) => {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  const queue = new Queue('jobs', { connection: client, prefix });
  try {
    await queue.addBulk(bodies().map(({ body }) => ({ name: 'm', data: body, opts: { removeOnComplete: true } })));
    await mark('filled');
    let completed = 0;
    const worker = new Worker('jobs', async () => {}, { connection: client, prefix, concurrency: width });
    worker.on('completed', () => void completed++);
    await eventually(() => expect(completed).toBe(MESSAGES));
    await worker.close();
    await mark('drained');
  } finally {
    await queue.close();
    await client.quit();
  }
};

/** The engine in batches of `width`, or (`perMessage`) in batches of 1 with `width` in flight (`config.concurrency`). */
const engineDrainOf =
  (perMessage: boolean): Drain =>
  async (width, prefix, mark) => {
    const seen: unknown[] = [];
    const runtime = createTriggerRuntime({
      env: {},
      engine: bullmqEngine({ connection: REDIS_URL, prefix }),
      triggers: {
        jobs: defineTrigger({
          source: { type: 'queue', name: 'jobs', batchSize: perMessage ? 1 : width },
          config: { observability: { metrics: false, tracing: false }, ...(perMessage ? { concurrency: width } : {}) },
          handle: (event) => void seen.push(...event.messages.map((m) => m.body)),
        }),
      },
    });
    try {
      const all = bodies();
      for (let sent = 0; sent < MESSAGES; sent += 100)
        await runtime.queue('jobs').sendBatch(all.slice(sent, sent + 100));
      await mark('filled');
      await runtime.start();
      await eventually(() => expect(seen).toHaveLength(MESSAGES));
      await runtime.stop();
      await mark('drained');
    } finally {
      await runtime.stop();
    }
  };

describe.skipIf(!redisUp)('bullmqEngine: Redis commands per message', () => {
  // The default batch size, and single messages (a run that could use durable steps).
  it.each([10, 1])(
    'a plain queue trigger at batch size %i sends at most 2 × that + 10 commands more than a raw Worker',
    async (width) => {
      const raw = await countCommands(rawDrain, width);
      const engine = await countCommands(engineDrainOf(false), width);
      // A raw worker settles each job and fetches the next in one command: about one per message.
      expect(raw).toBeGreaterThanOrEqual(MESSAGES);
      expect(engine - raw, `raw ${raw} commands, engine ${engine}`).toBeLessThanOrEqual(allowance(width));
    },
  );

  // One message per handler call, `width` in flight: a fleet-wide limit (BullMQ's global concurrency), where
  // an ack still fetches the next job while no other instance waits for a slot. Settling without fetching
  // and waking the queue instead costs two more commands per message, about 2 × `MESSAGES` beyond it.
  it('batch size 1 × concurrency 10 sends at most 2 × 10 + 10 commands more than a raw Worker at concurrency 10', async () => {
    const raw = await countCommands(rawDrain, 10);
    const engine = await countCommands(engineDrainOf(true), 10);
    expect(raw).toBeGreaterThanOrEqual(MESSAGES);
    expect(engine - raw, `raw ${raw} commands, engine ${engine}`).toBeLessThanOrEqual(allowance(10));
  });
});
