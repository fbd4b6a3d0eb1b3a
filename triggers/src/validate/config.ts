import { parseDuration, type Duration } from '../duration.js';
import { resolveBackoff } from '../runtime/backoff.js';
import type { ResolvedTriggerConfig, RetryBackoff } from '../types.js';
import { fail, rejectUnknownKeys, requireInteger, requireRecord } from './fields.js';
import { resolveSubscriptions } from './events-throttle.js';
import { resolveCancelOn } from './steps.js';

/** Configuration defaults, as documented in triggers/README.md "Retries and timeouts". */
export const CONFIG_DEFAULTS = { retries: 3, retryDelay: '1m', timeout: '30s', gracePeriod: '30s' } as const;
/** The largest timeout `defineTrigger` accepts: 15 minutes. */
export const MAX_TIMEOUT_MS = 15 * 60_000;

/** Validates `config` and returns it with defaults applied and durations parsed. */
export function resolveConfig(value: unknown): ResolvedTriggerConfig {
  const config = value === undefined ? {} : requireRecord(value, 'config');
  rejectUnknownKeys(config, 'config', [
    'retries',
    'retryDelay',
    'timeout',
    'gracePeriod',
    'observability',
    'concurrency',
    'concurrencyKey',
    'rateLimit',
    'debounce',
    'events',
    'throttle',
    'cancelOn',
  ]);
  const subscriptions = resolveSubscriptions(config.events, config.throttle);
  const rateLimit = config.rateLimit === undefined ? undefined : resolveRateLimit(config.rateLimit);
  const debounce = config.debounce === undefined ? undefined : resolveDebounce(config.debounce);
  const concurrency = config.concurrency === undefined ? undefined : resolveConcurrency(config.concurrency);
  if (config.concurrencyKey !== undefined && typeof config.concurrencyKey !== 'function') {
    fail('config.concurrencyKey', 'expected a function (event) => string');
  }
  const retries =
    config.retries === undefined ? CONFIG_DEFAULTS.retries : requireInteger(config.retries, 'config.retries', 0, 100);
  const retryDelay = (config.retryDelay ?? CONFIG_DEFAULTS.retryDelay) as Duration | RetryBackoff;
  const timeout = (config.timeout ?? CONFIG_DEFAULTS.timeout) as Duration;
  const backoff = resolveBackoff(retryDelay, 'config.retryDelay');
  const timeoutMs = parseDuration(timeout, 'config.timeout');
  if (timeoutMs <= 0) fail('config.timeout', 'must be greater than zero');
  if (timeoutMs > MAX_TIMEOUT_MS)
    fail('config.timeout', `'${timeout}' exceeds the maximum handler timeout of 15 minutes`);
  const gracePeriod = (config.gracePeriod ?? CONFIG_DEFAULTS.gracePeriod) as Duration;
  const gracePeriodMs = parseDuration(gracePeriod, 'config.gracePeriod');
  if (gracePeriodMs > MAX_TIMEOUT_MS) fail('config.gracePeriod', `'${gracePeriod}' exceeds 15 minutes`);
  const observability =
    config.observability === undefined ? {} : requireRecord(config.observability, 'config.observability');
  rejectUnknownKeys(observability, 'config.observability', ['metrics', 'tracing']);
  for (const key of ['metrics', 'tracing'] as const) {
    if (observability[key] !== undefined && typeof observability[key] !== 'boolean') {
      fail(`config.observability.${key}`, 'expected a boolean');
    }
  }
  return Object.freeze({
    retries,
    retryDelay: typeof retryDelay === 'object' ? Object.freeze({ ...retryDelay }) : retryDelay,
    retryDelayMs: backoff.baseMs,
    backoff,
    timeout,
    timeoutMs,
    gracePeriod,
    gracePeriodMs,
    observability: Object.freeze({
      metrics: observability.metrics !== false,
      tracing: observability.tracing !== false,
    }),
    ...(concurrency === undefined ? {} : { concurrency: concurrency.limit, concurrencyScope: concurrency.scope }),
    ...(config.concurrencyKey === undefined
      ? {}
      : { concurrencyKey: config.concurrencyKey as (event: unknown) => string | undefined }),
    ...(rateLimit ? { rateLimit } : {}),
    ...(debounce ? { debounce } : {}),
    ...subscriptions,
    ...resolveCancelOn(config.cancelOn),
  });
}

function resolveRateLimit(value: unknown): { limit: number; windowMs: number } {
  const record = requireRecord(value, 'config.rateLimit');
  rejectUnknownKeys(record, 'config.rateLimit', ['limit', 'window']);
  const limit = requireInteger(record.limit, 'config.rateLimit.limit', 1, 1_000_000);
  const windowMs = parseDuration(record.window, 'config.rateLimit.window');
  if (windowMs <= 0) fail('config.rateLimit.window', 'must be greater than zero');
  return Object.freeze({ limit, windowMs });
}

function resolveDebounce(value: unknown): { key: (body: unknown) => string | undefined; delayMs: number } {
  const record = requireRecord(value, 'config.debounce');
  rejectUnknownKeys(record, 'config.debounce', ['key', 'delay']);
  if (typeof record.key !== 'function') fail('config.debounce.key', 'expected a function (body) => string');
  const delayMs = parseDuration(record.delay, 'config.debounce.delay');
  if (delayMs <= 0) fail('config.debounce.delay', 'must be greater than zero');
  return Object.freeze({ key: record.key as (body: unknown) => string | undefined, delayMs });
}

/** `config.concurrency`: a number (scope `'fleet'`) or `{ limit, scope }`. */
function resolveConcurrency(value: unknown): { limit: number; scope: 'fleet' | 'instance' } {
  if (typeof value !== 'object' || value === null)
    return { limit: requireInteger(value, 'config.concurrency', 1, 1000), scope: 'fleet' };
  const record = requireRecord(value, 'config.concurrency');
  rejectUnknownKeys(record, 'config.concurrency', ['limit', 'scope']);
  const limit = requireInteger(record.limit, 'config.concurrency.limit', 1, 1000);
  if (record.scope !== undefined && record.scope !== 'fleet' && record.scope !== 'instance')
    fail('config.concurrency.scope', "expected 'fleet' or 'instance'");
  return { limit, scope: (record.scope as 'fleet' | 'instance' | undefined) ?? 'fleet' };
}
