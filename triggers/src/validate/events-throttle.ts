import { parseDuration } from '../duration.js';
import type { ResolvedTriggerConfig } from '../types.js';
import { fail, rejectUnknownKeys, requireInteger, requireRecord, requireString } from './fields.js';

/** Validates `config.events` and `config.throttle`; returns the resolved fields to spread into the config. */
export function resolveSubscriptions(
  events: unknown,
  throttle: unknown,
): Pick<ResolvedTriggerConfig, 'events' | 'throttle'> {
  const resolved: { events?: readonly string[]; throttle?: ResolvedTriggerConfig['throttle'] } = {};
  if (events !== undefined) {
    if (!Array.isArray(events) || events.length === 0) fail('config.events', 'expected a non-empty array of names');
    events.forEach((name, index) => {
      requireString(name, `config.events[${index}]`);
      if ((name as string).length > 200) fail(`config.events[${index}]`, 'longer than 200 characters');
    });
    if (new Set(events).size !== events.length) fail('config.events', 'contains duplicates');
    resolved.events = Object.freeze([...(events as string[])]);
  }
  if (throttle !== undefined) {
    const record = requireRecord(throttle, 'config.throttle');
    rejectUnknownKeys(record, 'config.throttle', ['key', 'limit', 'window']);
    if (record.key !== undefined && typeof record.key !== 'function')
      fail('config.throttle.key', 'expected a function (event) => string');
    const limit = requireInteger(record.limit, 'config.throttle.limit', 1, 1_000_000);
    const windowMs = parseDuration(record.window, 'config.throttle.window');
    if (windowMs <= 0) fail('config.throttle.window', 'must be greater than zero');
    resolved.throttle = Object.freeze({
      limit,
      windowMs,
      ...(record.key ? { key: record.key as (event: unknown) => string | undefined } : {}),
    });
  }
  return resolved;
}
