import { afterEach, describe, expect, it } from 'vitest';
import { serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { engineCases } from '../engine/bullmq-test-support.js';
import { eventually } from '../engine/conformance.js';
import { TriggerDefinitionError } from '../errors.js';
import { createTriggerRuntime, type TriggerRuntime } from './create.js';

// Under CI=true this throws when Redis is down, failing the file.
const redisUp = await serviceAvailable('redis');

const quiet = { observability: { metrics: false, tracing: false } } as const;

describe.each(engineCases(redisUp))('emit to an event name fans out to its subscribers (%s)', (_name, up, make) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it.skipIf(!up)(
    'every subscriber runs; a failing one retries alone',
    async () => {
      const calls = { welcome: [] as number[], audit: [] as unknown[], crm: [] as number[] };
      const { engine, cleanup } = make();
      const runtime: TriggerRuntime = createTriggerRuntime({
        name: 'fanout',
        env: {},
        engine,
        triggers: {
          // A queue subscriber gets the data as a message of its queue.
          audit: defineTrigger({
            source: { type: 'queue', name: 'audit', batchSize: 1, batchTimeout: '0ms' },
            config: { ...quiet, events: ['user.created'] },
            handle: (event) => void calls.audit.push(event.messages[0]!.body),
          }),
          welcome: defineTrigger({
            source: { type: 'email' },
            config: { ...quiet, events: ['user.created'], retries: 2, retryDelay: '20ms' },
            handle: (_event, ctx) => {
              calls.welcome.push(ctx.attempt);
              if (ctx.attempt === 1) throw new Error('mail server busy');
            },
          }),
          crm: defineTrigger({
            source: { type: 'email' },
            config: { ...quiet, events: ['user.created', 'user.deleted'] },
            handle: (_event, ctx) => void calls.crm.push(ctx.attempt),
          }),
        },
      });
      cleanups.push(cleanup, () => runtime.stop({ timeout: '2s' }));
      expect(runtime.events).toEqual([
        { event: 'user.created', subscribers: ['audit', 'welcome', 'crm'] },
        { event: 'user.deleted', subscribers: ['crm'] },
      ]);
      await runtime.start();
      await runtime.emit('user.created', { id: 42 });
      await eventually(() => {
        expect(calls.welcome).toEqual([1, 2]);
        expect(calls.crm).toEqual([1]);
        expect(calls.audit).toEqual([{ id: 42 }]);
      }, 10_000);
      await runtime.drain();
      expect(calls.crm).toEqual([1]);
      await expect(runtime.emit('user.renamed', {})).rejects.toMatchObject({ code: 'UNKNOWN_TRIGGER' });
    },
    30_000,
  );
});

describe('config.events', () => {
  it('refuses an event named like a trigger, and bad names', () => {
    const handle = () => {};
    expect(() =>
      createTriggerRuntime({
        env: {},
        triggers: {
          a: defineTrigger({ source: { type: 'email' }, config: { events: ['b'] }, handle }),
          b: defineTrigger({ source: { type: 'email' }, handle }),
        },
      }),
    ).toThrow(/an event name must differ from every trigger name/);
    expect(() => defineTrigger({ source: { type: 'email' }, config: { events: [] }, handle })).toThrow(
      TriggerDefinitionError,
    );
    expect(() => defineTrigger({ source: { type: 'email' }, config: { events: ['x', 'x'] }, handle })).toThrow(
      /duplicates/,
    );
    expect(() =>
      defineTrigger({ source: { type: 'email' }, config: { throttle: { limit: 0, window: '1s' } }, handle }),
    ).toThrow(/config.throttle.limit/);
  });
});
