import { bullmqEngine, createTriggerRuntime, defineTrigger } from '@framework/trigger';
import { describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
// The trigger package's own Redis test support: isolated key prefixes and their removal, polling a condition.
import { deletePrefix, REDIS_URL, testPrefix } from '../../../triggers/src/engine/bullmq-test-support.js';
import { eventually } from '../../../triggers/src/engine/conformance.js';
import { fixtures, run } from '../run.test-helpers.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

describe('framework triggers replay', () => {
  it('needs exactly one of --id and --all, and a known trigger', async () => {
    expect(await run('triggers', 'replay', 'mailer', '--dir', fixtures)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('exactly one of --id'),
    });
    expect(await run('triggers', 'replay', 'mailer', '--all', '--id', 'x', '--dir', fixtures)).toMatchObject({
      code: 2,
    });
    expect(await run('triggers', 'replay', 'nope', '--all', '--dir', fixtures)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown trigger "nope"'),
    });
  });

  it.skipIf(!redisUp)(
    'moves failed messages of the fixture queue back on Redis',
    async () => {
      const prefix = testPrefix();
      const engine = bullmqEngine({ connection: REDIS_URL, prefix });
      const failing = createTriggerRuntime({
        env: {},
        engine,
        triggers: {
          mailer: defineTrigger({
            source: { type: 'queue', name: 'mail', batchSize: 1, batchTimeout: '20ms' },
            config: { retries: 0, observability: { metrics: false, tracing: false } },
            handle: () => {
              throw new Error('smtp down');
            },
          }),
        },
      });
      try {
        await failing.start();
        await failing.queue('mail').send({ to: 'a@example.com' }, { id: 'mail-a' });
        await failing.queue('mail').send({ to: 'b@example.com' }, { id: 'mail-b' });
        await eventually(async () => expect(await failing.failed('mail')).toHaveLength(2));
        await failing.stop();
        const byId = await run(
          'triggers',
          'replay',
          'mailer',
          '--id',
          'mail-b',
          '--redis',
          REDIS_URL,
          '--prefix',
          prefix,
          '--dir',
          fixtures,
        );
        expect(byId).toMatchObject({ code: 0, stdout: 'replayed 1 message(s): mail-b\n' });
        const all = await run(
          'triggers',
          'replay',
          'mailer',
          '--all',
          '--redis',
          REDIS_URL,
          '--prefix',
          prefix,
          '--dir',
          fixtures,
        );
        expect(all).toMatchObject({ code: 0, stdout: 'replayed 1 message(s): mail-a\n' });
        const check = bullmqEngine({ connection: REDIS_URL, prefix });
        expect(await check.failed('mail')).toEqual([]);
        expect(await check.cancel!('mail', 'mail-a')).toBe(true); // waiting again
        await check.stop();
      } finally {
        await deletePrefix(prefix);
      }
    },
    30_000,
  );
});
