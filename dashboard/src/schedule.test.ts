import { describe, expect, it } from 'vitest';
import { nextOccurrences } from './schedule.js';

describe('nextOccurrences', () => {
  it('lists the next times of a 6-field cron (seconds first), as the trigger runtime fires them', () => {
    const from = new Date('2025-01-01T00:00:05Z');
    expect(nextOccurrences('*/10 * * * * *', 'UTC', 3, from).map((d) => d.toISOString())).toStrictEqual([
      '2025-01-01T00:00:10.000Z',
      '2025-01-01T00:00:20.000Z',
      '2025-01-01T00:00:30.000Z',
    ]);
  });

  it('lists 5-field crons in their time zone, and nothing for a cron or zone the trigger package refuses', () => {
    const from = new Date('2025-01-01T00:00:00Z');
    expect(nextOccurrences('0 9 * * *', 'Europe/Berlin', 2, from).map((d) => d.toISOString())).toStrictEqual([
      '2025-01-01T08:00:00.000Z',
      '2025-01-02T08:00:00.000Z',
    ]);
    expect(nextOccurrences('not a cron', 'UTC')).toStrictEqual([]);
    expect(nextOccurrences('0 9 * * *', 'Mars/Olympus')).toStrictEqual([]);
  });
});
