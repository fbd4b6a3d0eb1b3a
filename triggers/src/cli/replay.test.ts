import { describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { bullmqEngine } from '../engine/bullmq.js';
import { deletePrefix, REDIS_URL, testPrefix } from '../engine/bullmq-test-support.js';
import { eventually } from '../engine/conformance.js';
import { createTriggerRuntime } from '../runtime/create.js';
import { runCli } from './index.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const fixtures = new URL('./__fixtures__/triggers/', import.meta.url).pathname;

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    cwd: fixtures,
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}

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
