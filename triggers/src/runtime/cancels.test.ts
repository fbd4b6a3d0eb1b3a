import { describe, expect, it } from 'vitest';
import { CancelRegistry, type RunningAttempt } from './cancels.js';

/** An attempt serving `runIds` that records the reasons it was aborted with. */
const attempt = (...runIds: string[]) => {
  const reasons: unknown[] = [];
  const running: RunningAttempt = {
    runIds,
    previous: undefined,
    next: undefined,
    abort: (reason) => void reasons.push(reason),
  };
  return { running, reasons };
};

describe('CancelRegistry', () => {
  it('aborts every attempt of a run, one or overlapping, and forgets each as it ends', () => {
    const registry = new CancelRegistry();
    const first = attempt('run-1');
    const second = attempt('run-1');
    const other = attempt('run-2');
    registry.add(first.running);
    registry.add(other.running);
    expect(registry.has('run-1')).toBe(true);
    registry.add(second.running);
    registry.remove(first.running);
    expect(registry.abort('run-1')).toBe(true);
    expect(first.reasons).toHaveLength(0);
    expect(other.reasons).toHaveLength(0);
    expect(second.reasons).toHaveLength(1);
    expect((second.reasons[0] as { code?: string }).code).toBe('RUN_CANCELED');
    registry.add(first.running);
    expect(registry.abort('run-1')).toBe(true);
    expect(first.reasons).toHaveLength(1);
    expect(second.reasons).toHaveLength(2);
    registry.remove(second.running);
    registry.remove(first.running);
    expect(registry.has('run-1')).toBe(false);
    expect(registry.abort('run-1')).toBe(false);
    expect(registry.has('run-2')).toBe(true);
  });

  it('abortAll aborts every attempt with the reason, also one that leaves the registry as it is aborted', () => {
    const registry = new CancelRegistry();
    const batch = attempt('a', 'b');
    const leaving = attempt();
    leaving.running.abort = (reason) => {
      leaving.reasons.push(reason);
      registry.remove(leaving.running);
    };
    registry.add(batch.running);
    registry.add(leaving.running);
    const reason = new Error('stopped');
    registry.abortAll(reason);
    expect(batch.reasons).toEqual([reason]);
    expect(leaving.reasons).toEqual([reason]);
    expect(registry.has('b')).toBe(true);
    expect(registry.abort('b')).toBe(true);
  });
});
