import { describe, expect, it } from 'vitest';
import { CancelRegistry, type Abortable } from './cancels.js';

const attempt = () => {
  const reasons: unknown[] = [];
  const abortable: Abortable = { abort: (reason) => void reasons.push(reason) };
  return { abortable, reasons };
};

describe('CancelRegistry', () => {
  it('aborts every attempt of a run, one or overlapping, and forgets each as it ends', () => {
    const registry = new CancelRegistry();
    const first = attempt();
    const second = attempt();
    registry.add('run-1', first.abortable);
    expect(registry.has('run-1')).toBe(true);
    registry.add('run-1', second.abortable);
    registry.remove('run-1', first.abortable);
    expect(registry.abort('run-1')).toBe(true);
    expect(first.reasons).toHaveLength(0);
    expect(second.reasons).toHaveLength(1);
    expect((second.reasons[0] as { code?: string }).code).toBe('RUN_CANCELED');
    registry.add('run-1', first.abortable);
    expect(registry.abort('run-1')).toBe(true);
    expect(first.reasons).toHaveLength(1);
    expect(second.reasons).toHaveLength(2);
    registry.remove('run-1', second.abortable);
    registry.remove('run-1', first.abortable);
    expect(registry.has('run-1')).toBe(false);
    expect(registry.abort('run-1')).toBe(false);
  });

  it('register returns the function that forgets the attempt', () => {
    const registry = new CancelRegistry();
    const only = attempt();
    const forget = registry.register('run-2', only.abortable);
    forget();
    expect(registry.abort('run-2')).toBe(false);
    expect(only.reasons).toHaveLength(0);
  });
});
