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

  it('shares the limit between runs that enter at once (tryEnter/leave) and runs that wait (run)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.boolean(), { maxLength: 20 }),
        async (limit, fast) => {
          const gate = new Gate(limit);
          let active = 0;
          let peak = 0;
          let ran = 0;
          const body = async () => {
            active++;
            peak = Math.max(peak, active);
            await tick();
            active--;
            ran++;
          };
          await Promise.all(
            fast.map(async (enterAtOnce) => {
              if (enterAtOnce && gate.tryEnter()) {
                try {
                  await body();
                } finally {
                  gate.leave();
                }
              } else await gate.run(undefined, body);
            }),
          );
          expect(peak).toBeLessThanOrEqual(limit);
          expect(ran).toBe(fast.length);
        },
      ),
    );
  });

  it('tryEnter refuses when every slot is taken; leave(held) gives the slot back only once held settles', async () => {
    const gate = new Gate(1);
    expect(gate.tryEnter()).toBe(true);
    expect(gate.tryEnter()).toBe(false);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    gate.leave(held);
    await tick();
    expect(gate.tryEnter()).toBe(false);
    let started = false;
    const waiting = gate.run(undefined, async () => void (started = true));
    await tick();
    expect(started).toBe(false);
    release();
    await waiting;
    expect(started).toBe(true);
    expect(gate.tryEnter()).toBe(true);
  });
});
