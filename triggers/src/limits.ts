import { parseDuration, type Duration } from './duration.js';
import { TriggerDefinitionError } from './errors.js';

/**
 * Platform limits enforced by the runtime. Defaults follow the table in triggers/README.md "Limits";
 * pass `limits` to `createTriggerRuntime` to change them. Note that
 * `defineTrigger` already enforces the absolute bounds (batch size 1–100,
 * timeout ≤ 15 minutes, 5- or 6-field cron, `every` ≥ 1 s), so runtime limits can only tighten those.
 */
export interface TriggerLimits {
  /**
   * Scheduled triggers per runtime. Default 1,000: a schedule costs one timer
   * (memory engine) or one delayed job (BullMQ) at a time, so the bound only
   * catches runaway generated definitions. (It was 3, a hosted platform's
   * quota that nothing in this kit needs.)
   */
  maxCronTriggers: number;
  /** Minimum time between two occurrences of one schedule. Default `'1s'` (6-field crons and `every`). */
  minCronInterval: Duration;
  /** Largest queue batch (consumer `batchSize` and `sendBatch` length). Default 100. */
  maxBatchSize: number;
  /**
   * Cap on every webhook body in bytes, over each trigger's `maxBodySize`
   * (default 1 MiB); larger requests get 413. Default 100 MB (104 857 600).
   */
  maxWebhookPayloadBytes: number;
  /** Largest handler timeout. Default `'15m'` (the paid plan); use `'30s'` to mirror the free plan. */
  maxTimeout: Duration;
}

/** The spec's limits. */
export const DEFAULT_LIMITS: Readonly<TriggerLimits> = Object.freeze({
  maxCronTriggers: 1_000,
  minCronInterval: '1s',
  maxBatchSize: 100,
  maxWebhookPayloadBytes: 100 * 1024 * 1024,
  maxTimeout: '15m',
});

/** Limits with durations in milliseconds. */
export interface ResolvedLimits {
  maxCronTriggers: number;
  minCronIntervalMs: number;
  maxBatchSize: number;
  maxWebhookPayloadBytes: number;
  maxTimeoutMs: number;
}

/** Merges overrides into {@link DEFAULT_LIMITS} and validates them. */
export function resolveLimits(overrides: Partial<TriggerLimits> = {}): ResolvedLimits {
  const merged = { ...DEFAULT_LIMITS, ...overrides };
  for (const key of ['maxCronTriggers', 'maxBatchSize', 'maxWebhookPayloadBytes'] as const) {
    const value = merged[key];
    if (!Number.isInteger(value) || value < 0) {
      throw new TriggerDefinitionError(`limits.${key}`, `expected a non-negative integer, got ${String(value)}`);
    }
  }
  return {
    maxCronTriggers: merged.maxCronTriggers,
    minCronIntervalMs: parseDuration(merged.minCronInterval, 'limits.minCronInterval'),
    maxBatchSize: merged.maxBatchSize,
    maxWebhookPayloadBytes: merged.maxWebhookPayloadBytes,
    maxTimeoutMs: parseDuration(merged.maxTimeout, 'limits.maxTimeout'),
  };
}
