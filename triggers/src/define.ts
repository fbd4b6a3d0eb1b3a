import type { EventFor, TriggerConfig, TriggerDefinition, TriggerHandler, TriggerSource } from './types.js';
import { resolveConfig } from './validate/config.js';
import { fail, rejectUnknownKeys, requireRecord } from './validate/fields.js';
import { normalizeSource } from './validate/sources.js';

/** Marks objects made by `defineTrigger`; a registry symbol so copies of the package agree. */
const DEFINITION = Symbol.for('@framework/trigger.definition');

/** The record passed to {@link defineTrigger}. */
export interface TriggerDefinitionInput<S extends TriggerSource, Env> {
  source: S;
  handle: TriggerHandler<EventFor<S>, Env>;
  config?: TriggerConfig;
}

/**
 * Defines a trigger: validates the source and config at once and returns a
 * frozen {@link TriggerDefinition} with defaults applied.
 *
 * Checks: 5-field cron (croner syntax, at most once a minute) and IANA
 * `timezone` (default `'UTC'`); queue `batchSize` 1–100 (default 10) and
 * durations; webhook `path` starting with `/`, `methods` (default
 * `['POST']`) and `maxBodySize` (bytes, 1 to 104 857 600, default 1 MiB); objectstore `events`; sqldb
 * `operations`; tail filters; config
 * `retries` (default 3), `retryDelay` (default `'1m'`), `timeout` (default
 * `'30s'`, at most `'15m'`). Durations are strings such as `'30s'`; bare numbers
 * are rejected.
 *
 * @throws {TriggerDefinitionError} code `INVALID_TRIGGER_DEFINITION`; the message starts with the field path,
 * e.g. `source.batchSize: expected an integer from 1 to 100, got number 0`
 * @example
 * ```ts
 * export default defineTrigger({
 *   source: { type: 'scheduled', cron: '0 3 * * *', timezone: 'Europe/Berlin' },
 *   async handle(event, ctx) {
 *     await ctx.env.db.purge(event.scheduledTime);
 *   },
 *   config: { retries: 1, timeout: '2m' },
 * });
 * ```
 */
export function defineTrigger<const S extends TriggerSource, Env = Record<string, any>>(
  input: TriggerDefinitionInput<S, Env>,
): TriggerDefinition<S, Env> {
  const record = requireRecord(input, 'definition');
  rejectUnknownKeys(record, 'definition', ['source', 'handle', 'config']);
  if (typeof record.handle !== 'function') fail('handle', 'expected a function (event, ctx) => void | Promise<void>');
  const source = deepFreeze(normalizeSource(record.source));
  const config = resolveConfig(record.config);
  const definition = { source, handle: record.handle, config };
  Object.defineProperty(definition, DEFINITION, { value: true });
  return Object.freeze(definition) as unknown as TriggerDefinition<S, Env>;
}

/** `true` for objects returned by {@link defineTrigger}. */
export function isTriggerDefinition(value: unknown): value is TriggerDefinition {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[DEFINITION] === true;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
