import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Gate } from './gate.js';

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

describe('Gate', () => {
  it('never runs more than the limit at once, nor two runs of one key, and runs every job', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.option(fc.constantFrom('a', 'b', 'c'), { nil: undefined }), { maxLength: 25 }),
        async (limit, keys) => {
          const gate = new Gate(limit);
          let active = 0;
          let peak = 0;
          const activeKeys = new Set<string>();
          const order: number[] = [];
          await Promise.all(
            keys.map((key, i) =>
              gate.run(key, async () => {
                if (key !== undefined) {
                  expect(activeKeys.has(key)).toBe(false);
                  activeKeys.add(key);
                }
                active++;
                peak = Math.max(peak, active);
                await tick();
                active--;
                if (key !== undefined) activeKeys.delete(key);
                order.push(i);
              }),
            ),
          );
          expect(peak).toBeLessThanOrEqual(limit);
          for (const key of ['a', 'b', 'c']) {
            const ofKey = order.filter((i) => keys[i] === key);
            expect(ofKey).toEqual([...ofKey].sort((x, y) => x - y)); // one key: arrival order
          }
          expect([...order].sort((x, y) => x - y)).toEqual(keys.map((_, i) => i));
          return true;
        },
      ),
      { numRuns: 40 },
    );
  });

  it('releases the slot and the key when a run throws', async () => {
    const gate = new Gate(1);
    await expect(gate.run('k', async () => Promise.reject(new Error('x')))).rejects.toThrow('x');
    expect(await gate.run('k', async () => 'ok')).toBe('ok');
    expect(await gate.run(undefined, async () => 'free')).toBe('free');
  });
});
