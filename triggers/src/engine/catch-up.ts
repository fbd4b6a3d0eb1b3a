import { missedOccurrences } from '../cron.js';
import type { EngineCallbacks, EngineSchedule } from './types.js';

/**
 * The occurrences of `schedule` to run at start-up under its `catchUp`
 * policy, given the last occurrence that fired (`undefined`: none known, so
 * none are missed), logged at `info`; left-out ones (beyond 100 for `'all'`)
 * at `warn`.
 */
export function catchUpTimes(
  schedule: EngineSchedule,
  last: Date | undefined,
  now: Date,
  log: EngineCallbacks['log'],
): Date[] {
  const policy = schedule.catchUp ?? 'none';
  if (!last || policy === 'none') return [];
  const { times, dropped } = missedOccurrences(schedule, last, now, policy);
  if (times.length > 0)
    log({
      level: 'info',
      message: `"${schedule.trigger}" catches up ${times.length} missed occurrence(s) (catchUp: '${policy}')`,
      trigger: schedule.trigger,
      data: { catchUp: policy, times: times.map((t) => t.toISOString()) },
    });
  if (dropped > 0 && policy === 'all')
    log({
      level: 'warn',
      message: `"${schedule.trigger}" missed ${dropped} more occurrence(s) than catchUp: 'all' runs; they are skipped`,
      trigger: schedule.trigger,
      data: { dropped },
    });
  return times;
}
