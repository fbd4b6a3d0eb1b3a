/** `toHaveRun`: the attempts `runtime.onRun` reported, as a run recorder kept them. */
import { afterAll, describe, expect, it } from 'vitest';
import '../vitest.js';
import { createTriggerRuntime, defineTrigger } from '@framework/trigger';
import { createTestContext } from '../context/create-test-context.js';
import { recordRuns } from '../runs/recorder.js';

function makeRuntime() {
  let failures = 1;
  return createTriggerRuntime({
    env: {},
    triggers: {
      hook: defineTrigger({ source: { type: 'webhook', path: '/hooks/in' }, handle: () => {} }),
      flaky: defineTrigger({
        source: { type: 'webhook', path: '/hooks/flaky' },
        config: { retries: 1, retryDelay: '0s' },
        handle: () => {
          if (failures-- > 0) throw new Error('first try fails');
        },
      }),
      idle: defineTrigger({ source: { type: 'webhook', path: '/hooks/idle' }, handle: () => {} }),
    },
  });
}

describe('toHaveRun', async () => {
  const ctx = await createTestContext({ app: makeRuntime() });
  afterAll(() => ctx.cleanup());
  const post = (path: string) =>
    ctx.fetch(path, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
  await post('/hooks/in');
  await post('/hooks/in');
  await ctx.runtime!.dispatch('flaky', {}); // fails once, then passes on its retry

  it('passes for a test context, its runtime and its recorder; counts with times and filters with with', () => {
    expect(ctx).toHaveRun('hook');
    expect(ctx.runtime).toHaveRun('hook', { times: 2 });
    expect(ctx.runs).toHaveRun('flaky', { times: 2 });
    expect(ctx).toHaveRun('flaky', { times: 1, with: { status: 'exception', attempt: 1, error: 'first try fails' } });
    expect(ctx).toHaveRun('flaky', { with: { status: 'ok', attempt: 2, durationMs: expect.any(Number) } });
    expect(ctx).not.toHaveRun('idle');
  });

  it('fails saying what it wanted and which attempts there were', () => {
    expect(() => expect(ctx).toHaveRun('idle')).toThrow(
      'expected trigger "idle" to have run at least once, but 0 attempts match; it has no recorded attempt',
    );
    expect(() => expect(ctx).toHaveRun('hook', { times: 3 })).toThrow(
      'expected trigger "hook" to have run 3 times, but 2 attempts match; its attempts: #1 ok, #1 ok',
    );
    expect(() => expect(ctx).toHaveRun('flaky', { with: { status: 'timeout' } })).toThrow(
      'expected trigger "flaky" to have run at least once with {"status": "timeout"}, but 0 attempts match; its attempts: #1 exception, #2 ok',
    );
    expect(() => expect(ctx).not.toHaveRun('hook')).toThrow('expected trigger "hook" not to have run at least once');
  });

  it('sees only the attempts after recording started, and says when nothing records', async () => {
    const runtime = makeRuntime();
    await runtime.dispatch('hook', {});
    expect(() => expect(runtime).toHaveRun('hook')).toThrow(/nothing records the runs of this runtime/);
    const recorder = recordRuns(runtime);
    expect(runtime).not.toHaveRun('hook');
    await runtime.dispatch('hook', {});
    expect(runtime).toHaveRun('hook', { times: 1 });
    recorder.clear();
    expect(recorder).not.toHaveRun('hook');
    recorder.stop();
    await runtime.dispatch('hook', {});
    expect(recorder.runs).toEqual([]);
    expect(() => expect(runtime).toHaveRun('hook')).toThrow(/nothing records/);
  });

  it('refuses bad arguments', () => {
    expect(() => expect({}).toHaveRun('hook')).toThrow(TypeError);
    expect(() => expect(ctx).toHaveRun('hook', { times: -1 })).toThrow('times must be a whole number');
  });
});
