import { parseDuration, type Duration } from '../duration.js';
import type { ResolvedTriggerConfig } from '../types.js';
import { fail, rejectUnknownKeys, requireInteger, requireRecord } from './fields.js';

/** Configuration defaults from the spec. */
export const CONFIG_DEFAULTS = { retries: 3, retryDelay: '1m', timeout: '30s' } as const;
/** The largest timeout `defineTrigger` accepts: 15 minutes. */
export const MAX_TIMEOUT_MS = 15 * 60_000;

/** Validates `config` and returns it with defaults applied and durations parsed. */
export function resolveConfig(value: unknown): ResolvedTriggerConfig {
  const config = value === undefined ? {} : requireRecord(value, 'config');
  rejectUnknownKeys(config, 'config', ['retries', 'retryDelay', 'timeout', 'observability']);
  const retries = config.retries === undefined ? CONFIG_DEFAULTS.retries : requireInteger(config.retries, 'config.retries', 0, 100);
  const retryDelay = (config.retryDelay ?? CONFIG_DEFAULTS.retryDelay) as Duration;
  const timeout = (config.timeout ?? CONFIG_DEFAULTS.timeout) as Duration;
  const retryDelayMs = parseDuration(retryDelay, 'config.retryDelay');
  const timeoutMs = parseDuration(timeout, 'config.timeout');
  if (timeoutMs <= 0) fail('config.timeout', 'must be greater than zero');
  if (timeoutMs > MAX_TIMEOUT_MS) fail('config.timeout', `'${timeout}' exceeds the maximum handler timeout of 15 minutes`);
  const observability = config.observability === undefined ? {} : requireRecord(config.observability, 'config.observability');
  rejectUnknownKeys(observability, 'config.observability', ['metrics', 'tracing']);
  for (const key of ['metrics', 'tracing'] as const) {
    if (observability[key] !== undefined && typeof observability[key] !== 'boolean') {
      fail(`config.observability.${key}`, 'expected a boolean');
    }
  }
  return Object.freeze({
    retries,
    retryDelay,
    retryDelayMs,
    timeout,
    timeoutMs,
    observability: Object.freeze({
      metrics: observability.metrics !== false,
      tracing: observability.tracing !== false,
    }),
  });
}
