import { scheduleOf } from '../cron.js';
import type { EngineSchedule } from '../engine/types.js';
import type { ScheduledEvent, ScheduledSource } from '../types.js';

/** What the engine must fire for the scheduled trigger `trigger`: its occurrences, overlap and catch-up. */
export function engineScheduleOf(trigger: string, source: ScheduledSource): EngineSchedule {
  const schedule = scheduleOf(source);
  return {
    trigger,
    cron: schedule.expression,
    timezone: schedule.timezone,
    overlap: source.overlap ?? 'skip',
    catchUp: source.catchUp ?? 'none',
    next: schedule.next,
  };
}

/** The event of one occurrence of `source`. */
export function scheduledEventOf(source: ScheduledSource, scheduledTime: Date): ScheduledEvent {
  return source.every === undefined
    ? { cron: source.cron ?? '', scheduledTime }
    : { cron: '', every: source.every, scheduledTime };
}
