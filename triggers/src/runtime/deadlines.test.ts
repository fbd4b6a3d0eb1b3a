import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadlines, type Due } from './deadlines.js';

class Entry implements Due<Entry> {
  dueAt = 0;
  earlier: Entry | undefined = undefined;
  later: Entry | undefined = undefined;
  expiredAt: number | undefined = undefined;
  constructor(readonly n: number) {}
  expire(): void {
    this.expiredAt = performance.now();
  }
}

const DELAY = 100;

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('Deadlines', () => {
  it('expires exactly the entries left in for their whole delay, never early, each once (model check)', () => {
    // A step adds an entry (when it is out), removes it, or lets time pass.
    const step = fc.oneof(
      fc.record({ add: fc.integer({ min: 0, max: 7 }) }),
      fc.record({ remove: fc.integer({ min: 0, max: 7 }) }),
      // Short waits too: entries added a few milliseconds apart expire a few milliseconds apart.
      fc.record({ wait: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 150 })) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        vi.clearAllTimers();
        const deadlines = new Deadlines<Entry>(DELAY);
        const entries = Array.from({ length: 8 }, (_, n) => new Entry(n));
        const expirations = entries.map(() => 0);
        for (const entry of entries) entry.expire = () => void expirations[entry.n]!++;
        // The model: when each entry in the list was added, and how often each should have expired.
        const addedAt = new Map<number, number>();
        const expected = entries.map(() => 0);
        for (const s of steps) {
          if ('add' in s) {
            if (addedAt.has(s.add)) continue;
            deadlines.add(entries[s.add]!);
            addedAt.set(s.add, performance.now());
          } else if ('remove' in s) {
            deadlines.remove(entries[s.remove]!);
            addedAt.delete(s.remove);
          } else {
            // A millisecond at a time: an entry expires in the millisecond its delay is over, not before.
            for (let ms = 0; ms < s.wait; ms++) {
              vi.advanceTimersByTime(1);
              for (const [n, at] of addedAt)
                if (performance.now() - at >= DELAY) {
                  expected[n]!++;
                  addedAt.delete(n);
                }
              expect(expirations).toEqual(expected);
            }
          }
        }
        expect(expirations).toEqual(expected);
        // No timer is left once nothing waits.
        if (addedAt.size === 0) expect(vi.getTimerCount()).toBe(0);
      }),
      // Always tried: two entries a millisecond apart expire a millisecond apart.
      { numRuns: 300, examples: [[[{ add: 0 }, { wait: 1 }, { add: 1 }, { wait: 100 }]]] },
    );
  });

  it('expires entries in the order added, each after its own delay, with one timer for all', () => {
    const deadlines = new Deadlines<Entry>(DELAY);
    const [a, b, c] = [new Entry(0), new Entry(1), new Entry(2)];
    const start = performance.now();
    deadlines.add(a);
    vi.advanceTimersByTime(30);
    deadlines.add(b);
    vi.advanceTimersByTime(30);
    deadlines.add(c);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(39);
    expect(a.expiredAt).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(a.expiredAt! - start).toBe(100);
    expect(b.expiredAt).toBeUndefined();
    vi.advanceTimersByTime(30);
    expect(b.expiredAt! - start).toBe(130);
    deadlines.remove(c);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(DELAY);
    expect(c.expiredAt).toBeUndefined();
  });

  it('holds no timer once empty, and a removed entry does not expire', () => {
    const deadlines = new Deadlines<Entry>(DELAY);
    const a = new Entry(0);
    deadlines.add(a);
    deadlines.remove(a);
    deadlines.remove(a);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(DELAY * 2);
    expect(a.expiredAt).toBeUndefined();
  });
});
