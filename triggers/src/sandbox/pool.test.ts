import { describe, expect, it } from 'vitest';
import { SandboxPool, type SandboxHooks } from './pool.js';

const LOOP = new URL('./__fixtures__/loop.mjs', import.meta.url).href;
const logs: string[] = [];
const hooks: SandboxHooks = {
  log: (_level, message) => void logs.push(message),
  noRetry: () => {},
  emit: async () => {},
  decide: () => {},
};
const task = (attempt: number) => ({
  module: LOOP,
  event: {},
  queue: false,
  traceId: 'f'.repeat(32),
  attempt,
  trigger: 't',
});

describe('SandboxPool', () => {
  it('terminates looping runs, replaces their workers, and never holds more than its size', async () => {
    const pool = new SandboxPool(2);
    const signal = new AbortController().signal;
    const looping = [pool.run(task(1), hooks, signal), pool.run(task(1), hooks, signal)];
    const outcomes = looping.map((run) =>
      run.result.then(
        () => 'settled',
        (error: Error) => error.message,
      ),
    );
    expect(pool.alive).toBe(2);
    await Promise.all(looping.map((run) => run.terminate()));
    expect(await Promise.all(outcomes)).toEqual([
      expect.stringMatching(/exited .* before the handler settled/),
      expect.stringMatching(/exited .* before the handler settled/),
    ]);
    // The replacements wait idle: the next runs reuse them.
    expect(pool.alive).toBe(2);
    await Promise.all([pool.run(task(2), hooks, signal).result, pool.run(task(2), hooks, signal).result]);
    expect(pool.alive).toBe(2);
    await pool.close();
    expect(pool.alive).toBe(0);
    await expect(pool.run(task(2), hooks, signal).result).rejects.toMatchObject({ code: 'RUNTIME_STOPPED' });
  });

  it('refuses an event structured clone cannot copy, and the worker stays usable', async () => {
    const pool = new SandboxPool(1);
    const signal = new AbortController().signal;
    await expect(pool.run({ ...task(2), event: { callback: () => {} } }, hooks, signal).result).rejects.toMatchObject({
      code: 'TRIGGER_SANDBOX_UNCLONEABLE',
      retryable: false,
    });
    await pool.run(task(2), hooks, signal).result;
    expect(pool.alive).toBe(1);
    await pool.close();
  });
});
