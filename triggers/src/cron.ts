import { Cron } from 'croner';
import { TriggerDefinitionError } from './errors.js';

/** A parsed 5-field cron expression bound to a timezone. */
export interface CronSchedule {
  readonly expression: string;
  readonly timezone: string;
  /** The first occurrence strictly after `after`, or `null` if there is none. */
  next(after: Date): Date | null;
}

/**
 * Parses `expression` (exactly 5 fields, croner syntax, or one of croner's
 * nicknames `@yearly`, `@annually`, `@monthly`, `@weekly`, `@daily`,
 * `@hourly`) in the IANA `timezone`. Expressions that can never fire, such as
 * `0 0 31 2 *`, are refused.
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
    cron = new Cron(expression, { timezone, mode: '5-part', paused: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error);
    throw new TriggerDefinitionError(
      path,
      `invalid cron '${expression}': ${reason} (expected 5 fields: minute hour day-of-month month day-of-week)`,
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
        from = new Date(Math.max(next.getTime(), from.getTime()) + 60_000);
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
  // Five fields have minute precision: any schedule satisfies a limit of one minute or less.
  if (minIntervalMs <= 60_000) return;
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
