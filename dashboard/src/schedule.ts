import { Cron } from 'croner';

/** The next `count` occurrences of a 5-field cron in `timezone` (croner, DST-safe); empty for a cron croner rejects. */
export function nextOccurrences(cron: string, timezone: string, count = 5, from: Date = new Date()): Date[] {
  try {
    return new Cron(cron, { timezone, mode: '5-part', paused: true }).nextRuns(count, from);
  } catch {
    return [];
  }
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
