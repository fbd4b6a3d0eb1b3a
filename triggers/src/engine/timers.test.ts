/** `timerAt` calls its function at its due time and never before, even when the timeout itself fires early. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { timerAt } from './timers.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('timerAt', () => {
  it('re-arms a timeout that fires before the due time by Date.now()', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const t0 = Date.UTC(2026, 0, 1);
    vi.setSystemTime(t0);
    let calls = 0;
    timerAt(t0 + 100, () => calls++, true);
    // The wall clock steps back 40 ms after arming (as Date.now() runs ahead of a lagging loop time): the
    // timeout fires after its 100 ms while Date.now() says 60 ms have passed.
    vi.setSystemTime(t0 - 40);
    vi.advanceTimersByTime(100);
    expect(Date.now()).toBe(t0 + 60);
    expect(calls).toBe(0);
    vi.advanceTimersByTime(39);
    expect(calls).toBe(0);
    vi.advanceTimersByTime(1);
    expect(calls).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(calls).toBe(1);
  });

  it('calls at once for a due time past, and not after cancel', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    let calls = 0;
    timerAt(Date.now() - 5, () => calls++, true);
    vi.advanceTimersByTime(0);
    expect(calls).toBe(1);
    const timer = timerAt(Date.now() + 10, () => calls++, true);
    timer.cancel();
    vi.advanceTimersByTime(20);
    expect(calls).toBe(1);
  });
});
