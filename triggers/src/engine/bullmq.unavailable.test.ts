/**
 * A Redis that does not answer fails `start()` with `ENGINE_UNAVAILABLE` within the 5 s deadline, instead of
 * BullMQ's endless reconnecting. Port 1 on loopback refuses every connection, so no service is needed.
 */
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTrigger } from '../define.js';
import { createTriggerRuntime } from '../runtime/create.js';
import { TriggerError } from '../errors.js';
import { bullmqEngine } from './bullmq.js';
import type { BullmqConnection } from './bullmq-connection.js';

function runtimeOn(connection: BullmqConnection) {
  return createTriggerRuntime({
    env: {},
    engine: bullmqEngine({ connection, prefix: 'unavailable-test' }),
    triggers: {
      work: defineTrigger({
        source: { type: 'queue', name: 'work' },
        config: { observability: { metrics: false, tracing: false } },
        handle: async () => {},
      }),
    },
  });
}

async function startFailure(connection: BullmqConnection): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await runtimeOn(connection)
    .start()
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  return { error, ms: performance.now() - started };
}

describe('bullmqEngine without a reachable Redis', () => {
  let silent: Server | undefined;
  afterEach(() => {
    silent?.close();
    silent = undefined;
  });

  it('a refused URL fails start() with ENGINE_UNAVAILABLE naming host and port, never the password', async () => {
    const { error, ms } = await startFailure('redis://user:hunter2@127.0.0.1:1');
    expect(error).toBeInstanceOf(TriggerError);
    expect(error).toMatchObject({ code: 'ENGINE_UNAVAILABLE', retryable: true });
    expect((error as Error).message).toContain('127.0.0.1:1');
    expect((error as Error).message).not.toContain('hunter2');
    expect(ms).toBeLessThan(7_000);
  }, 10_000);

  it('a server that accepts but never answers fails the same way', async () => {
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent!.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const { error } = await startFailure(`redis://127.0.0.1:${port}`);
    expect(error).toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
  }, 10_000);
});
