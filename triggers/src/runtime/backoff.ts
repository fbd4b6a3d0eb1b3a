import { parseDuration, type Duration } from '../duration.js';
import type { RetryBackoff } from '../types.js';
import { fail, rejectUnknownKeys, requireEnum } from '../validate/fields.js';

/** A retry delay policy with durations in milliseconds. */
export interface ResolvedBackoff {
  readonly type: 'fixed' | 'exponential';
  readonly baseMs: number;
  /** Upper bound of the delay (before jitter); `Infinity` when none. */
  readonly maxMs: number;
  /** Fraction 0–1 of the delay that is randomised away. */
  readonly jitter: number;
}

/**
 * Validates a `retryDelay`: a duration (fixed delay) or a
 * `{type, base, max?, jitter?}` record.
 *
 * @throws {TriggerDefinitionError} code `INVALID_TRIGGER_DEFINITION`, naming `path`
 */
export function resolveBackoff(value: Duration | RetryBackoff, path: string): ResolvedBackoff {
  if (typeof value !== 'object' || value === null) {
    return Object.freeze({
      type: 'fixed',
      baseMs: parseDuration(value, path),
      maxMs: Number.POSITIVE_INFINITY,
      jitter: 0,
    });
  }
  const record = value as unknown as Record<string, unknown>;
  rejectUnknownKeys(record, path, ['type', 'base', 'max', 'jitter']);
  const type = requireEnum(record.type, `${path}.type`, ['fixed', 'exponential'] as const);
  const baseMs = parseDuration(record.base, `${path}.base`);
  const maxMs = record.max === undefined ? Number.POSITIVE_INFINITY : parseDuration(record.max, `${path}.max`);
  if (maxMs < baseMs) fail(`${path}.max`, `must not be shorter than base`);
  const jitter = record.jitter ?? 0;
  if (typeof jitter !== 'number' || !(jitter >= 0 && jitter <= 1))
    fail(`${path}.jitter`, 'expected a number from 0 to 1');
  return Object.freeze({ type, baseMs, maxMs, jitter });
}

/**
 * The delay before retry number `attempt` (1 = the retry after the first
 * failure): `base` (fixed) or `base × 2^(attempt − 1)` (exponential), at most
 * `max`, then reduced by a random share of up to `jitter` (so with `jitter:
 * 0.5` it lies between 50 % and 100 % of the computed delay), as BullMQ does.
 */
export function backoffDelay(backoff: ResolvedBackoff, attempt: number, random: () => number = Math.random): number {
  const exponent = Math.max(0, attempt - 1);
  const raw = backoff.type === 'fixed' ? backoff.baseMs : backoff.baseMs * 2 ** Math.min(exponent, 52);
  const capped = Math.min(raw, backoff.maxMs);
  return Math.round(capped * (1 - backoff.jitter * random()));
}
