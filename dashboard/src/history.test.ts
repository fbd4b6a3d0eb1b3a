import { describe, expect, it } from 'vitest';
import type { RunRecord } from '@framework/trigger';
import { createRunHistory } from './history.js';

/** A runtime stand-in exposing only `onRun`, driven by the test. */
function fakeRuntime() {
  let listener: ((run: RunRecord) => void) | undefined;
  return {
    onRun(fn: (run: RunRecord) => void) {
      listener = fn;
      return () => (listener = undefined);
    },
    emit(n: number, status: RunRecord['status'] = 'ok', logs = 0) {
      listener?.({
        id: `t${n}:1`,
        trigger: n % 2 ? 'odd' : 'even',
        source: 'queue',
        attempt: 1,
        traceId: `t${n}`,
        status,
        startedAt: new Date(0),
        durationMs: 1,
        logs: Array.from({ length: logs }, (_, i) => ({
          level: 'info' as const,
          message: `line ${i}`,
          timestamp: new Date(0),
        })),
      });
    },
    get listening() {
      return listener !== undefined;
    },
  };
}

describe('run history', () => {
  it('keeps the newest `capacity` runs, newest first, and forgets evicted ids', () => {
    const runtime = fakeRuntime();
    const history = createRunHistory(runtime, { capacity: 3 });
    for (let n = 1; n <= 5; n++) runtime.emit(n);
    expect(history.recent().map((r) => r.id)).toEqual(['t5:1', 't4:1', 't3:1']);
    expect(history.get('t2:1')).toBeUndefined();
    expect(history.get('t4:1')?.trigger).toBe('even');
    expect(history.recent({ trigger: 'odd' }).map((r) => r.id)).toEqual(['t5:1', 't3:1']);
    expect(history.recent({ limit: 1 }).map((r) => r.id)).toEqual(['t5:1']);
  });

  it('caps log lines per run, keeping the last ones', () => {
    const runtime = fakeRuntime();
    const history = createRunHistory(runtime, { maxLogsPerRun: 2 });
    runtime.emit(1, 'ok', 5);
    expect(history.get('t1:1')!.logs.map((l) => l.message)).toEqual(['line 3', 'line 4']);
  });

  it('counts runs and failures per minute over the last hour, dropping older minutes', () => {
    const runtime = fakeRuntime();
    let now = Date.UTC(2026, 0, 1, 12, 0, 30);
    const history = createRunHistory(runtime, { now: () => now });
    runtime.emit(1);
    runtime.emit(2, 'exception');
    runtime.emit(3, 'suspended');
    now += 60_000;
    runtime.emit(4, 'timeout');
    let t = history.throughput();
    expect(t.minutes).toHaveLength(60);
    expect(t.minutes.at(-1)).toBe(Date.UTC(2026, 0, 1, 12, 1) / 1000);
    expect([t.runs.at(-2), t.errors.at(-2), t.runs.at(-1), t.errors.at(-1)]).toEqual([3, 1, 1, 1]);
    now += 60 * 60_000;
    t = history.throughput();
    expect(t.runs.reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('notifies subscribers and stops listening on close', () => {
    const runtime = fakeRuntime();
    const history = createRunHistory(runtime);
    const seen: string[] = [];
    const off = history.subscribe((run) => seen.push(run.id));
    runtime.emit(1);
    off();
    runtime.emit(2);
    expect(seen).toEqual(['t1:1']);
    history.close();
    expect(runtime.listening).toBe(false);
  });
});
