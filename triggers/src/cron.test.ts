import { describe, expect, it } from 'vitest';
import { assertCronInterval, MAX_CATCH_UP, minimumGapMs, missedOccurrences, parseCron, parseEvery } from './cron.js';

const iso = (d: Date | null) => d?.toISOString();

describe('cron schedules (croner, 5 fields)', () => {
  it('computes occurrences in the given timezone', () => {
    const daily = parseCron('0 0 * * *', 'America/New_York');
    // EST (UTC-5) before the March change, EDT (UTC-4) after.
    expect(iso(daily.next(new Date('2025-03-08T12:00:00Z')))).toBe('2025-03-09T05:00:00.000Z');
    expect(iso(daily.next(new Date('2025-03-09T05:00:00Z')))).toBe('2025-03-10T04:00:00.000Z');
  });

  it('runs a local time that does not exist (spring forward) one hour later', () => {
    const s = parseCron('30 2 * * *', 'Europe/Berlin');
    expect(iso(s.next(new Date('2025-03-29T12:00:00Z')))).toBe('2025-03-30T01:30:00.000Z'); // 03:30 CEST
  });

  it('runs a repeated local time (fall back) once, at its first occurrence', () => {
    const s = parseCron('30 2 * * *', 'Europe/Berlin');
    const first = s.next(new Date('2025-10-25T12:00:00Z'));
    expect(iso(first)).toBe('2025-10-26T00:30:00.000Z'); // 02:30 CEST
    expect(iso(s.next(first!))).toBe('2025-10-27T01:30:00.000Z'); // next day, 02:30 CET
  });

  it('stays monotonic for sub-hourly schedules across the spring change', () => {
    const s = parseCron('*/30 * * * *', 'Europe/Berlin');
    let at = new Date('2025-03-30T00:15:00Z');
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      at = s.next(at)!;
      seen.push(at.toISOString().slice(11, 16));
    }
    expect(seen).toEqual(['00:30', '01:00', '01:30', '02:00', '02:30']);
  });

  it('measures the minimum interval and enforces a limit', () => {
    expect(minimumGapMs(parseCron('*/5 * * * *', 'UTC'), new Date(0))).toBe(300_000);
    expect(() => assertCronInterval(parseCron('*/5 * * * *', 'UTC'), 600_000)).toThrow(
      'fires every 300s, more often than the minimum interval of 600s',
    );
    expect(() => assertCronInterval(parseCron('0,1 * * * *', 'UTC'), 120_000)).toThrow(/fires every 60s/);
    expect(() => assertCronInterval(parseCron('0 * * * *', 'UTC'), 3_600_000)).not.toThrow();
  });

  it('accepts croner nicknames and rare but possible dates, refuses dates that never come', () => {
    expect(iso(parseCron('@daily', 'UTC').next(new Date('2025-01-01T05:00:00Z')))).toBe('2025-01-02T00:00:00.000Z');
    expect(iso(parseCron('@hourly', 'UTC').next(new Date('2025-01-01T05:10:00Z')))).toBe('2025-01-01T06:00:00.000Z');
    expect(iso(parseCron('0 0 29 2 *', 'UTC').next(new Date('2025-01-01T00:00:00Z')))).toBe('2028-02-29T00:00:00.000Z');
    for (const never of ['0 0 31 2 *', '0 0 30 2 *', '0 0 31 11 *']) {
      expect(() => parseCron(never, 'UTC')).toThrow(/never fires/);
    }
  });
});

describe('6-field crons, every and catch-up', () => {
  it('takes a seconds field first (croner 5-or-6-parts)', () => {
    const s = parseCron('*/15 * * * * *', 'UTC');
    let at = new Date('2025-01-01T00:00:07Z');
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) seen.push(iso((at = s.next(at)!))!);
    expect(seen).toEqual([
      '2025-01-01T00:00:15.000Z',
      '2025-01-01T00:00:30.000Z',
      '2025-01-01T00:00:45.000Z',
      '2025-01-01T00:01:00.000Z',
    ]);
    expect(parseCron('30 0 9 * * 1', 'Europe/Berlin').next(new Date('2025-06-01T00:00:00Z'))).toEqual(
      new Date('2025-06-02T07:00:30Z'),
    );
    expect(minimumGapMs(s, new Date('2025-01-01T00:00:00Z'))).toBe(15_000);
    expect(() => assertCronInterval(s, 20_000)).toThrow('fires every 15s');
    expect(() => parseCron('0 0 * * * * *', 'UTC')).toThrow(/or 6 with a seconds field first/);
  });

  it('places every occurrences at multiples of the interval since the epoch', () => {
    const s = parseEvery('30s');
    expect(s.next(new Date('2025-01-01T00:00:07Z'))).toEqual(new Date('2025-01-01T00:00:30Z'));
    expect(s.next(new Date('2025-01-01T00:00:30Z'))).toEqual(new Date('2025-01-01T00:01:00Z'));
    expect(parseEvery('7m').next(new Date(0))).toEqual(new Date(7 * 60_000));
    expect(() => parseEvery('500ms')).toThrow("source.every: expected whole seconds of at least '1s'");
    expect(() => parseEvery('30')).toThrow('source.every');
  });

  describe('missedOccurrences', () => {
    const hourly = parseCron('0 * * * *', 'UTC');
    const last = new Date('2025-01-01T00:00:00Z');
    const now = new Date('2025-01-01T03:30:00Z');

    it("'none' runs nothing", () => {
      expect(missedOccurrences(hourly, last, now, 'none')).toEqual({ times: [], dropped: 0 });
    });

    it("'latest' runs the most recent missed occurrence", () => {
      const latest = missedOccurrences(hourly, last, now, 'latest');
      expect(latest.times).toEqual([new Date('2025-01-01T03:00:00Z')]);
      expect(latest.dropped).toBe(0);
      expect(missedOccurrences(hourly, last, new Date('2025-01-01T00:59:00Z'), 'latest').times).toEqual([]);
    });

    it("'all' runs every missed occurrence oldest first, at most 100 (the most recent)", () => {
      expect(missedOccurrences(hourly, last, now, 'all').times.map(iso)).toEqual([
        '2025-01-01T01:00:00.000Z',
        '2025-01-01T02:00:00.000Z',
        '2025-01-01T03:00:00.000Z',
      ]);
      const long = missedOccurrences(parseEvery('1m'), last, new Date('2025-01-02T00:00:00Z'), 'all');
      expect(long.times).toHaveLength(MAX_CATCH_UP);
      expect(iso(long.times.at(-1)!)).toBe('2025-01-02T00:00:00.000Z');
      expect(iso(long.times[0]!)).toBe('2025-01-01T22:21:00.000Z');
      expect(long.dropped).toBeGreaterThan(0);
    });

    it('finds nothing when the last occurrence is current', () => {
      expect(missedOccurrences(hourly, now, now, 'all')).toEqual({ times: [], dropped: 0 });
    });
  });
});
