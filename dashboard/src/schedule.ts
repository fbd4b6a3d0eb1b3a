import { scheduleOf } from '@framework/trigger';

/**
 * The next `count` occurrences of a cron (5 fields, or 6 with seconds first, as `defineTrigger` takes it) in
 * `timezone`, after `from`: the trigger package's own schedule (`scheduleOf`, croner, DST-safe), so the page lists
 * the times the runtime fires. Empty for a cron or time zone the trigger package refuses.
 * @example
 * ```ts
 * nextOccurrences('*\/10 * * * * *', 'UTC', 2, new Date('2025-01-01T00:00:05Z')); // 00:00:10, 00:00:20
 * ```
 */
export function nextOccurrences(cron: string, timezone: string, count = 5, from: Date = new Date()): Date[] {
  let schedule;
  try {
    schedule = scheduleOf({ cron, timezone });
  } catch {
    return [];
  }
  const times: Date[] = [];
  for (let after = from; times.length < count;) {
    const next = schedule.next(after);
    if (!next) break;
    times.push(next);
    after = next;
  }
  return times;
}

/** `date` as `YYYY-MM-DD HH:mm` wall time in `timezone`. */
export function formatInZone(date: Date, timezone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}
