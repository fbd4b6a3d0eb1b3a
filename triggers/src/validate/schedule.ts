import { parseCron, parseEvery } from '../cron.js';
import type { Duration } from '../duration.js';
import { fail, requireString } from './fields.js';

/**
 * Validates the timing of a scheduled source: exactly one of `cron` (5 or 6
 * fields, checked by croner in `timezone`, default `'UTC'`) and `every` (whole
 * seconds, at least `'1s'`, no `timezone`: its occurrences are UTC multiples).
 */
export function normalizeSchedule(
  source: Record<string, unknown>,
): { cron: string; timezone: string } | { every: Duration } {
  if (source.every !== undefined) {
    if (source.cron !== undefined) fail('source', "give either 'cron' or 'every', not both");
    if (source.timezone !== undefined)
      fail('source.timezone', "applies to 'cron'; 'every' repeats at multiples of its interval since the Unix epoch");
    parseEvery(source.every);
    return { every: source.every as Duration };
  }
  if (source.cron === undefined) fail('source.cron', "expected a cron expression, or give 'every' (e.g. '30s')");
  const cron = requireString(source.cron, 'source.cron').trim();
  const timezone = source.timezone === undefined ? 'UTC' : (source.timezone as string);
  parseCron(cron, timezone);
  return { cron, timezone };
}
