import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRefusalLog } from './refusals.js';

describe('createRefusalLog', () => {
  it('keeps the newest `size` refusals, newest first, whatever the number recorded', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 30 }),
        (size, n, limit) => {
          const log = createRefusalLog(size);
          for (let i = 0; i < n; i++) log.record({ at: new Date(i), key: `ip-${i}`, limit: '/auth/x' });
          const expected = Array.from({ length: n }, (_, i) => `ip-${i}`)
            .slice(-size)
            .reverse()
            .slice(0, limit);
          expect(log.recent(limit).map((r) => r.key)).toEqual(expected);
        },
      ),
    );
  });

  it('hands out copies', () => {
    const log = createRefusalLog(2);
    log.record({ at: new Date(5), key: 'a', limit: '/auth/x' });
    log.recent()[0]!.at.setTime(0);
    expect(log.recent()[0]!.at.getTime()).toBe(5);
  });
});
