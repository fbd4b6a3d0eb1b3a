import { describe, expect, it } from 'vitest';
import { defineTrigger, isTriggerDefinition } from './define.js';
import { TriggerDefinitionError } from './errors.js';
import type { TriggerSource } from './types.js';

const noop = () => {};

function errorOf(fn: () => unknown): TriggerDefinitionError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TriggerDefinitionError);
    return error as TriggerDefinitionError;
  }
  throw new Error('expected a TriggerDefinitionError');
}

describe('defineTrigger', () => {
  it('returns a deeply frozen definition with defaults applied', () => {
    const def = defineTrigger({ source: { type: 'queue', name: 'jobs' }, handle: noop });
    expect(isTriggerDefinition(def)).toBe(true);
    expect(Object.isFrozen(def)).toBe(true);
    expect(Object.isFrozen(def.source)).toBe(true);
    expect(def.source).toEqual({ type: 'queue', name: 'jobs', batchSize: 10, batchTimeout: '5s' });
    expect(def.config).toEqual({
      retries: 3,
      retryDelay: '1m',
      retryDelayMs: 60_000,
      backoff: { type: 'fixed', baseMs: 60_000, maxMs: Number.POSITIVE_INFINITY, jitter: 0 },
      timeout: '30s',
      timeoutMs: 30_000,
      gracePeriod: '30s',
      gracePeriodMs: 30_000,
      observability: { metrics: true, tracing: true },
    });
  });

  it('defaults the timezone to UTC and webhook methods to POST', () => {
    expect(defineTrigger({ source: { type: 'scheduled', cron: '0 3 * * *' }, handle: noop }).source).toEqual({
      type: 'scheduled',
      cron: '0 3 * * *',
      timezone: 'UTC',
      overlap: 'skip',
      catchUp: 'none',
    });
    expect(defineTrigger({ source: { type: 'webhook', path: '/hook' }, handle: noop }).source.methods).toEqual([
      'POST',
    ]);
  });

  it.each([
    [{ type: 'scheduled', cron: '0 * * * * * *' }, 'source.cron', "invalid cron '0 * * * * * *'"],
    [{ type: 'scheduled' }, 'source.cron', "expected a cron expression, or give 'every'"],
    [{ type: 'scheduled', cron: '* * * * *', every: '1m' }, 'source', "either 'cron' or 'every'"],
    [{ type: 'scheduled', every: '1500ms' }, 'source.every', 'whole seconds'],
    [{ type: 'scheduled', every: '30s', timezone: 'UTC' }, 'source.timezone', "applies to 'cron'"],
    [{ type: 'scheduled', cron: '* * * * *', catchUp: 'some' }, 'source.catchUp', 'none'],
    [{ type: 'scheduled', cron: '61 * * * *' }, 'source.cron', 'minute: 61'],
    [{ type: 'scheduled', cron: '0 0 31 2 *' }, 'source.cron', "cron '0 0 31 2 *' never fires"],
    [{ type: 'scheduled', cron: '0 0 30 2 *' }, 'source.cron', 'never fires'],
    [{ type: 'scheduled', cron: '0 0 31 4,6,9,11 *' }, 'source.cron', 'never fires'],
    [
      { type: 'scheduled', cron: '* * * * *', overlap: 'parallel' },
      'source.overlap',
      "expected one of 'skip', 'allow', 'queue'",
    ],
    [
      { type: 'scheduled', cron: '0 3 * * *', timezone: 'Mars/Olympus' },
      'source.timezone',
      "unknown IANA time zone 'Mars/Olympus'",
    ],
    [{ type: 'queue', name: 'q', batchSize: 0 }, 'source.batchSize', 'from 1 to 100'],
    [{ type: 'queue', name: 'q', batchSize: 101 }, 'source.batchSize', 'from 1 to 100'],
    [{ type: 'queue', name: 'q', batchTimeout: 5 }, 'source.batchTimeout', 'got the number 5'],
    [{ type: 'queue', name: 'q', retryDelay: '5 minutes' }, 'source.retryDelay', "invalid duration '5 minutes'"],
    [{ type: 'queue', name: 'q', deadLetterQueue: 'q' }, 'source.deadLetterQueue', 'must differ'],
    [{ type: 'webhook', path: 'hook' }, 'source.path', "must start with '/'"],
    [{ type: 'webhook', path: '/hook', methods: ['POST', 'HEAD'] }, 'source.methods[1]', "got 'HEAD'"],
    [{ type: 'objectstore', bucket: 'b', events: ['object:update'] }, 'source.events[0]', "'object:create'"],
    [{ type: 'objectstore', bucket: 'b', events: [] }, 'source.events', 'non-empty'],
    [{ type: 'sqldb', database: 'DB', operations: ['UPSERT'] }, 'source.operations[0]', "'INSERT', 'UPDATE', 'DELETE'"],
    [
      { type: 'tail', workers: ['app'], filters: [{ field: 'level', value: 'x' }] },
      'source.filters[0].field',
      "got 'level'",
    ],
    [
      { type: 'tail', workers: ['app'], filters: [{ field: 'status', value: 500, operator: 'endsWith' }] },
      'source.filters[0].operator',
      "got 'endsWith'",
    ],
    [
      { type: 'tail', workers: ['app'], filters: [{ field: 'samplingRate', value: 2 }] },
      'source.filters[0].value',
      '0 to 1',
    ],
    [{ type: 'email', address: 'not-an-address' }, 'source.address', 'not an email address'],
    [{ type: 'cron', cron: '* * * * *' }, 'source.type', "got 'cron'"],
    [{ type: 'queue', name: 'q', batchsize: 5 }, 'source.batchsize', 'unknown field'],
  ])('rejects %j with a precise message', (source, path, detail) => {
    const error = errorOf(() => defineTrigger({ source: source as never, handle: noop }));
    expect(error.message.startsWith(`${path}:`)).toBe(true);
    expect(error.message).toContain(detail);
    expect(error.code).toBe('INVALID_TRIGGER_DEFINITION');
    expect(error.retryable).toBe(false);
  });

  it.each([
    [{ retries: -1 }, 'config.retries'],
    [{ retries: 1.5 }, 'config.retries'],
    [{ timeout: 30 }, 'config.timeout: expected a string'],
    [{ timeout: '16m' }, 'exceeds the maximum handler timeout of 15 minutes'],
    [{ timeout: '0s' }, 'greater than zero'],
    [{ retryDelay: '1 m' }, 'config.retryDelay'],
    [{ observability: { metrics: 'yes' } }, 'config.observability.metrics'],
  ])('rejects config %j', (config, detail) => {
    expect(
      errorOf(() => defineTrigger({ source: { type: 'email' }, handle: noop, config: config as never })).message,
    ).toContain(detail);
  });

  it('accepts the maximum timeout and custom observability', () => {
    const def = defineTrigger({
      source: { type: 'email' },
      handle: noop,
      config: { timeout: '15m', observability: { tracing: false } },
    });
    expect(def.config.timeoutMs).toBe(900_000);
    expect(def.config.observability).toEqual({ metrics: true, tracing: false });
  });

  it('requires a handler function', () => {
    expect(errorOf(() => defineTrigger({ source: { type: 'email' } } as never)).message).toMatch(
      /^handle: expected a function/,
    );
  });

  it('validates every source kind, including those delivered in part 2', () => {
    const sources: TriggerSource[] = [
      { type: 'objectstore', bucket: 'uploads', events: ['object:create', 'object:delete'], prefix: 'img/' },
      { type: 'email', domain: 'example.com' },
      { type: 'sqldb', database: 'DB', tables: ['users'], operations: ['INSERT'] },
      { type: 'tail', workers: ['app'], filters: [{ field: 'status', value: 5, operator: 'startsWith' }] },
    ];
    for (const source of sources) expect(defineTrigger({ source, handle: noop }).source.type).toBe(source.type);
  });
});
