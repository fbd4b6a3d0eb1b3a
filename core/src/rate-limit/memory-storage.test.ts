import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from './memory-storage.js';

const WINDOW_MS = 60_000;
/** A time aligned to a window boundary, so tests can step exactly to the edges. */
const START = 1_000 * WINDOW_MS;

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(START);
});
afterEach(() => vi.useRealTimers());

const counter = (algorithm: 'fixed-window' | 'sliding-window', limit = 5, maxEntries?: number) => {
  const storage = memoryStorage(algorithm, maxEntries);
  return { storage, counter: storage.counter({ limit, windowMs: WINDOW_MS, prefix: 't' }) };
};

describe('memory fixed window', () => {
  it('allows exactly `limit` requests, counting remaining down to 0, then refuses', async () => {
    const { counter: c } = counter('fixed-window', 5);
    const seen = [];
    for (let i = 0; i < 7; i++) seen.push(await c.consume('k'));
    expect(seen.map((r) => r.success)).toEqual([true, true, true, true, true, false, false]);
    expect(seen.map((r) => r.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
    expect(seen.every((r) => r.limit === 5 && r.resetAt === START + WINDOW_MS)).toBe(true);
  });

  it('keeps keys and prefixes apart', async () => {
    const storage = memoryStorage('fixed-window');
    const a = storage.counter({ limit: 1, windowMs: WINDOW_MS, prefix: 'a' });
    const b = storage.counter({ limit: 1, windowMs: WINDOW_MS, prefix: 'b' });
    expect((await a.consume('k')).success).toBe(true);
    expect((await a.consume('k')).success).toBe(false);
    expect((await a.consume('other')).success).toBe(true);
    expect((await b.consume('k')).success).toBe(true);
  });

  it('still refuses 1 ms before the boundary and starts afresh exactly at it', async () => {
    const { counter: c } = counter('fixed-window', 2);
    await c.consume('k');
    await c.consume('k');
    vi.setSystemTime(START + WINDOW_MS - 1);
    expect((await c.consume('k')).success).toBe(false);
    vi.setSystemTime(START + WINDOW_MS);
    const r = await c.consume('k');
    expect(r).toEqual({ success: true, limit: 2, remaining: 1, resetAt: START + 2 * WINDOW_MS });
  });

  it('rolls over with timers advanced past the window', async () => {
    const { counter: c } = counter('fixed-window', 1);
    expect((await c.consume('k')).success).toBe(true);
    vi.advanceTimersByTime(WINDOW_MS / 2);
    expect((await c.consume('k')).success).toBe(false);
    vi.advanceTimersByTime(WINDOW_MS / 2);
    expect((await c.consume('k')).success).toBe(true);
    vi.advanceTimersByTime(10 * WINDOW_MS);
    expect((await c.consume('k')).remaining).toBe(0);
  });
});

describe('memory sliding window', () => {
  it('weighs the previous window by its remaining overlap', async () => {
    const { counter: c } = counter('sliding-window', 10);
    for (let i = 0; i < 10; i++) expect((await c.consume('k')).success).toBe(true);
    // 25 % into the next window: floor(0.75 × 10) = 7 still count, so 3 more pass.
    vi.setSystemTime(START + WINDOW_MS + WINDOW_MS / 4);
    const next = [];
    for (let i = 0; i < 4; i++) next.push(await c.consume('k'));
    expect(next.map((r) => [r.success, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    // 75 % in: floor(0.25 × 10) = 2 from before + 3 now = 5 used, 5 left.
    vi.setSystemTime(START + WINDOW_MS + (3 * WINDOW_MS) / 4);
    expect(await c.consume('k')).toMatchObject({ success: true, remaining: 4 });
  });

  it('forgets everything two windows later, and refusals do not count', async () => {
    const { counter: c } = counter('sliding-window', 2);
    for (let i = 0; i < 5; i++) await c.consume('k');
    vi.setSystemTime(START + WINDOW_MS + 1);
    // floor((1 - 1/60000) × 2) = 1 from before (not 5: refused requests were not counted).
    expect(await c.consume('k')).toMatchObject({ success: true, remaining: 0 });
    vi.setSystemTime(START + 3 * WINDOW_MS);
    expect(await c.consume('k')).toMatchObject({ success: true, remaining: 1 });
  });
});

describe('memory bound', () => {
  it('never holds more than maxEntries counters and evicts the least recently used', async () => {
    const { storage, counter: c } = counter('fixed-window', 1, 100);
    await c.consume('victim');
    for (let i = 0; i < 1_000; i++) {
      await c.consume(`k${i}`);
      expect(storage.size()).toBeLessThanOrEqual(100);
    }
    expect(storage.size()).toBe(100);
    // Evicted: the victim starts afresh. Recent keys keep their counts.
    expect((await c.consume('victim')).success).toBe(true);
    expect((await c.consume('k999')).success).toBe(false);
  });

  it('drops expired windows before live ones', async () => {
    const { storage, counter: c } = counter('fixed-window', 1, 10);
    for (let i = 0; i < 5; i++) await c.consume(`old${i}`);
    vi.setSystemTime(START + WINDOW_MS);
    for (let i = 0; i < 5; i++) await c.consume(`new${i}`);
    await c.consume('trigger');
    // The five expired counters went; the live ones all stay.
    expect(storage.size()).toBe(6);
    for (let i = 0; i < 5; i++) expect((await c.consume(`new${i}`)).success).toBe(false);
  });
});
