import { describe, expect, it } from 'vitest';
import { stepsOf } from './step-records.js';

const stored = (meta: Record<string, unknown>, value: unknown = 1) => JSON.stringify({ v: value, m: meta });

describe('stepsOf: the order steps were first called', () => {
  it('sorts by start, and steps started in the same millisecond by the order they were first called', () => {
    // Stored out of order (a store may hand fields back in any order, e.g. a Redis hash rewritten on retry).
    const steps = stepsOf(
      {
        pause: stored({ k: 'sleep', s: 1000, o: 2 }, 900),
        charge: stored({ k: 'run', s: 1000, o: 1, e: 1000 }),
        reserve: stored({ k: 'run', s: 1000, o: 0, e: 1000 }),
        early: stored({ k: 'run', s: 999, o: 5, e: 999 }),
      },
      2000,
    );
    expect(steps.map((step) => step.id)).toEqual(['early', 'reserve', 'charge', 'pause']);
  });

  it('keeps the stored order for ties without an order (steps stored by an older version)', () => {
    const steps = stepsOf(
      { b: stored({ k: 'run', s: 5 }), a: stored({ k: 'run', s: 5 }), c: stored({ k: 'run', s: 4 }) },
      10,
    );
    expect(steps.map((step) => step.id)).toEqual(['c', 'b', 'a']);
  });
});
