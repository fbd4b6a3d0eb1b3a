import { Cron } from 'croner';
import { parseDuration } from './duration.js';
import { TriggerDefinitionError } from './errors.js';
import type { CatchUpPolicy } from './types.js';

/** A parsed schedule (a 5- or 6-field cron expression bound to a timezone, or an `every` interval). */
export interface CronSchedule {
  readonly expression: string;
  readonly timezone: string;
  /** The first occurrence strictly after `after`, or `null` if there is none. */
  next(after: Date): Date | null;
}

/**
 * Parses `expression` (5 fields, or 6 with seconds first, croner syntax, or
 * one of croner's nicknames `@yearly`, `@annually`, `@monthly`, `@weekly`,
 * `@daily`, `@hourly`) in the IANA `timezone`. Expressions that can never
 * fire, such as `0 0 31 2 *`, are refused.
 *
 * Occurrences are computed one at a time from the previous one and forced to
 * move forward, which keeps sub-hourly schedules monotonic across DST changes.
 *
 * @throws {TriggerDefinitionError} for a bad timezone, a bad expression or one that never fires, with `path`
 * in the message
 */
export function parseCron(expression: string, timezone: string, path = 'source.cron'): CronSchedule {
  assertTimezone(timezone, path.replace(/cron$/, 'timezone'));
  let cron: Cron;
  try {
    cron = new Cron(expression, { timezone, mode: '5-or-6-parts', paused: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error);
    throw new TriggerDefinitionError(
      path,
      `invalid cron '${expression}': ${reason} (expected 5 fields: minute hour day-of-month month day-of-week, or 6 with a seconds field first)`,
    );
  }
  // croner looks several years ahead, so a null here means the expression can never fire.
  if (firstRun(cron) === null) {
    throw new TriggerDefinitionError(path, `cron '${expression}' never fires (no such date, e.g. February 31)`);
  }
  return {
    expression,
    timezone,
    next(after) {
      let from = after;
      for (let guard = 0; guard < 4; guard++) {
        const next = cron.nextRun(from);
        if (next === null || next.getTime() > after.getTime()) return next;
        from = new Date(Math.max(next.getTime(), from.getTime()) + 1_000);
      }
      return null;
    },
  };
}

/**
 * The next occurrence from now; `null` when there is none (croner overflows its stack searching some
 * impossible lists).
 */
function firstRun(cron: Cron): Date | null {
  try {
    return cron.nextRun(new Date());
  } catch {
    return null;
  }
}

/**
 * The smallest gap between consecutive occurrences over the next `samples`
 * occurrences from `reference`, in milliseconds (`Infinity` if fewer than two).
 */
export function minimumGapMs(schedule: CronSchedule, reference: Date, samples = 200): number {
  let previous = schedule.next(reference);
  let smallest = Number.POSITIVE_INFINITY;
  for (let i = 0; previous && i < samples; i++) {
    const next = schedule.next(previous);
    if (!next) break;
    smallest = Math.min(smallest, next.getTime() - previous.getTime());
    previous = next;
  }
  return smallest;
}

/** Throws unless `cron` fires at most once per `minIntervalMs`. */
export function assertCronInterval(schedule: CronSchedule, minIntervalMs: number, path = 'source.cron'): void {
  // Six fields have second precision: any schedule satisfies a limit of one second or less.
  if (minIntervalMs <= 1_000) return;
  const gap = minimumGapMs(schedule, new Date(Date.UTC(2025, 0, 1)));
  if (gap < minIntervalMs) {
    throw new TriggerDefinitionError(
      path,
      `cron '${schedule.expression}' fires every ${gap / 1000}s, more often than the minimum interval of ${minIntervalMs / 1000}s`,
      'TRIGGER_LIMIT_EXCEEDED',
    );
  }
}

/** Throws unless `timezone` is an IANA time zone name known to the runtime's Intl data. */
export function assertTimezone(timezone: unknown, path = 'source.timezone'): void {
  if (typeof timezone !== 'string' || timezone === '') {
    throw new TriggerDefinitionError(path, `expected an IANA time zone name such as 'Europe/Berlin'`);
  }
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
  } catch {
    throw new TriggerDefinitionError(path, `unknown IANA time zone '${timezone}' (e.g. 'UTC', 'America/New_York')`);
  }
}

/**
 * An `every` schedule: occurrences at whole multiples of `interval` since the
 * Unix epoch (UTC), as BullMQ's job schedulers place `every` repeats, so every
 * instance and every restart agree on them (`'30s'` fires at :00 and :30 of
 * each minute, `'1h'` on the hour).
 * @throws {TriggerDefinitionError} for a duration that is not a whole number of seconds of at least 1 s
 */
export function parseEvery(interval: unknown, path = 'source.every'): CronSchedule {
  const ms = parseDuration(interval, path);
  if (ms < 1_000 || ms % 1_000 !== 0)
    throw new TriggerDefinitionError(path, `expected whole seconds of at least '1s', got '${String(interval)}'`);
  return {
    expression: `every ${String(interval)}`,
    timezone: 'UTC',
    next: (after) => new Date((Math.floor(after.getTime() / ms) + 1) * ms),
  };
}

/**
 * The schedule of a scheduled source: its `cron` in its `timezone`, or its
 * `every` interval (e.g. for a dashboard listing the next occurrences).
 * @throws {TriggerDefinitionError} for an invalid cron, timezone or interval
 * @example
 * ```ts
 * const schedule = scheduleOf({ every: '30s' });
 * schedule.next(new Date('2025-01-01T00:00:07Z')); // 2025-01-01T00:00:30Z
 * ```
 */
export function scheduleOf(
  source: { cron?: string; every?: string; timezone?: string },
  path = 'source',
): CronSchedule {
  return source.every !== undefined
    ? parseEvery(source.every, `${path}.every`)
    : parseCron(source.cron ?? '', source.timezone ?? 'UTC', `${path}.cron`);
}

/** The most occurrences `catchUp: 'all'` runs after one downtime. */
export const MAX_CATCH_UP = 100;

/**
 * The occurrences of `schedule` after `last` (the last one that fired) up to
 * `now`, which a runtime starting at `now` missed: none for `'none'`, the most
 * recent for `'latest'`, the most recent {@link MAX_CATCH_UP} oldest first
 * for `'all'`. `dropped` counts, for `'all'`, missed occurrences left out (a
 * lower bound after a long downtime: only the end of it is scanned).
 *
 * @example
 * ```ts
 * const hourly = parseCron('0 * * * *', 'UTC');
 * missedOccurrences(hourly, new Date('2025-01-01T00:00Z'), new Date('2025-01-01T03:30Z'), 'latest');
 * // { times: [2025-01-01T03:00Z], dropped: 0 }
 * ```
 */
export function missedOccurrences(
  schedule: Pick<CronSchedule, 'next'>,
  last: Date,
  now: Date,
  policy: CatchUpPolicy,
): { times: Date[]; dropped: number } {
  if (policy === 'none' || now.getTime() <= last.getTime()) return { times: [], dropped: 0 };
  const want = policy === 'latest' ? 1 : MAX_CATCH_UP;
  // Scan back from `now` over a window that doubles until it holds `want` occurrences or reaches `last`.
  for (let span = 60_000 * (want + 1); ; span *= 2) {
    const from = Math.max(last.getTime(), now.getTime() - span);
    const found: Date[] = [];
    for (let next = schedule.next(new Date(from)); next && next.getTime() <= now.getTime(); next = schedule.next(next))
      found.push(next);
    if (found.length >= want || from === last.getTime()) {
      const times = found.slice(-want);
      return { times, dropped: policy === 'all' ? found.length - times.length : 0 };
    }
  }
}
