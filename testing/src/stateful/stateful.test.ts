import { describe, expect, it } from 'vitest';
import { createMockStatefulObjectState } from './state.js';

describe('createMockStatefulObjectState', () => {
  it('stores copies in memory, with put as a spy', async () => {
    const { storage } = createMockStatefulObjectState();
    const value = { count: 1 };
    await storage.put('counter', value);
    value.count = 99;
    expect(await storage.get('counter')).toEqual({ count: 1 });
    expect(storage.put).toHaveBeenCalledWith('counter', { count: 99 });
    await storage.put({ a: 1, b: 2 });
    expect(await storage.get(['a', 'b', 'missing'])).toEqual(
      new Map([
        ['a', 1],
        ['b', 2],
      ]),
    );
    expect(await storage.delete('a')).toBe(true);
    expect(await storage.delete('a')).toBe(false);
    expect(await storage.delete(['b', 'counter', 'none'])).toBe(2);
  });

  it('lists sorted keys with prefix, start, end, limit and reverse', async () => {
    const { storage } = createMockStatefulObjectState();
    await storage.put({ 'k:3': 3, 'k:1': 1, 'k:2': 2, other: 0 });
    expect([...(await storage.list({ prefix: 'k:' })).keys()]).toEqual(['k:1', 'k:2', 'k:3']);
    expect([...(await storage.list({ start: 'k:2', end: 'k:3' })).keys()]).toEqual(['k:2']);
    expect([...(await storage.list({ prefix: 'k:', reverse: true, limit: 2 })).entries()]).toEqual([
      ['k:3', 3],
      ['k:2', 2],
    ]);
    await storage.deleteAll();
    expect((await storage.list()).size).toBe(0);
  });

  it('rolls a transaction back on a throw or rollback(), and commits otherwise', async () => {
    const { storage } = createMockStatefulObjectState();
    await storage.put('n', 1);
    await expect(
      storage.transaction(async (txn) => {
        await txn.put('n', 2);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await storage.get('n')).toBe(1);
    await storage.transaction(async (txn) => {
      await txn.put('n', 3);
      txn.rollback();
    });
    expect(await storage.get('n')).toBe(1);
    expect(
      await storage.transaction(async (txn) => {
        await txn.put('n', 4);
        return (await txn.get('n')) as number;
      }),
    ).toBe(4);
    expect(await storage.get('n')).toBe(4);
  });

  it('keeps one alarm', async () => {
    const { storage } = createMockStatefulObjectState();
    expect(await storage.getAlarm()).toBeNull();
    await storage.setAlarm(new Date(5000));
    expect(await storage.getAlarm()).toBe(5000);
    await storage.setAlarm(7000);
    expect(await storage.getAlarm()).toBe(7000);
    await storage.deleteAlarm();
    expect(await storage.getAlarm()).toBeNull();
  });

  it('blockConcurrencyWhile runs blocks one at a time and returns their results', async () => {
    const state = createMockStatefulObjectState({ name: 'room' });
    const events: string[] = [];
    const slow = state.blockConcurrencyWhile(async () => {
      events.push('slow:start');
      await new Promise((resolve) => setTimeout(resolve, 20));
      events.push('slow:end');
      return 'slow';
    });
    const fast = state.blockConcurrencyWhile(() => (events.push('fast'), 'fast'));
    expect(await Promise.all([slow, fast])).toEqual(['slow', 'fast']);
    expect(events).toEqual(['slow:start', 'slow:end', 'fast']);
    await expect(
      state.blockConcurrencyWhile(() => {
        throw new Error('init failed');
      }),
    ).rejects.toThrow('init failed');
    expect(await state.blockConcurrencyWhile(() => 'after')).toBe('after');
    expect(state.id.toString()).toBe('room');
    expect(state.id.name).toBe('room');
    expect(state.id.equals({ toString: () => 'room' })).toBe(true);
  });
});
