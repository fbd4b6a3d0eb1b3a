import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineTrigger } from '../define.js';
import { TriggerError, TriggerTimeoutError } from '../errors.js';
import type { LogEntry, TriggerContext } from '../types.js';
import { createTriggerRuntime } from './create.js';

afterEach(() => {
  vi.useRealTimers();
});

const email = { type: 'email' } as const;

describe('runtime.dispatch', () => {
  it('passes env, a W3C trace id, a 1-based attempt and the trigger name', async () => {
    let seen: TriggerContext | undefined;
    const runtime = createTriggerRuntime({
      env: { greeting: 'hi' },
      triggers: { greet: defineTrigger({ source: email, handle: (_e, ctx) => void (seen = ctx) }) },
    });
    await runtime.dispatch('greet', {});
    expect(seen?.env).toEqual({ greeting: 'hi' });
    expect(seen?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(seen?.traceId).not.toMatch(/^0+$/);
    expect(seen?.attempt).toBe(1);
    expect(seen?.trigger).toBe('greet');
    expect(Object.isFrozen(seen)).toBe(true);
  });

  it('retries after retryDelay and keeps the trace id across attempts', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const attempts: Array<[number, string]> = [];
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        flaky: defineTrigger({
          source: email,
          config: { retries: 2, retryDelay: '10s' },
          handle: (_e, ctx) => {
            attempts.push([ctx.attempt, ctx.traceId]);
            if (ctx.attempt < 3) throw new Error(`boom ${ctx.attempt}`);
          },
        }),
      },
    });
    const done = runtime.dispatch('flaky', {});
    await vi.advanceTimersByTimeAsync(9_999);
    expect(attempts.map(([a]) => a)).toEqual([1]);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts.map(([a]) => a)).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(10_000);
    await done;
    expect(attempts.map(([a]) => a)).toEqual([1, 2, 3]);
    expect(new Set(attempts.map(([, t]) => t)).size).toBe(1);
  });

  it('rejects with the last error once retries are spent', async () => {
    let calls = 0;
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        broken: defineTrigger({
          source: email,
          config: { retries: 2, retryDelay: '1ms' },
          handle: () => {
            calls++;
            throw new Error(`failure ${calls}`);
          },
        }),
      },
    });
    await expect(runtime.dispatch('broken', {})).rejects.toThrow('failure 3');
    expect(calls).toBe(3);
  });

  it('does not retry after noRetry() or a non-retryable TriggerError', async () => {
    let calls = 0;
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        manual: defineTrigger({
          source: email,
          config: { retryDelay: '1ms' },
          handle: (_e, ctx) => {
            calls++;
            ctx.noRetry();
            throw new Error('stop');
          },
        }),
        typed: defineTrigger({
          source: email,
          config: { retryDelay: '1ms' },
          handle: () => {
            calls++;
            throw new TriggerError('declined', { code: 'DECLINED', retryable: false, context: { id: 1 } });
          },
        }),
      },
    });
    await expect(runtime.dispatch('manual', {})).rejects.toThrow('stop');
    await expect(runtime.dispatch('typed', {})).rejects.toMatchObject({ code: 'DECLINED', retryable: false });
    expect(calls).toBe(2);
  });

  it('aborts ctx.signal and fails with TriggerTimeoutError when the handler overruns', async () => {
    let signal: AbortSignal | undefined;
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        slow: defineTrigger({
          source: email,
          config: { timeout: '20ms', retries: 0 },
          handle: (_e, ctx) => {
            signal = ctx.signal;
            return new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))));
          },
        }),
      },
    });
    const error = await runtime.dispatch('slow', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TriggerTimeoutError);
    expect(error).toMatchObject({ code: 'TRIGGER_TIMEOUT', timeoutMs: 20 });
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe(error);
  });

  it('honours a retries override and a given trace id', async () => {
    const traces: string[] = [];
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        once: defineTrigger({
          source: email,
          handle: (_e, ctx) => {
            traces.push(ctx.traceId);
            throw new Error('no');
          },
        }),
      },
    });
    const traceId = 'abcdef0123456789abcdef0123456789';
    await expect(runtime.dispatch('once', {}, { retries: 0, traceId })).rejects.toThrow('no');
    expect(traces).toEqual([traceId]);
  });

  it('rejects unknown trigger names with UNKNOWN_TRIGGER', async () => {
    const runtime = createTriggerRuntime({ env: {}, triggers: {} });
    await expect(runtime.dispatch('nope', {})).rejects.toMatchObject({ code: 'UNKNOWN_TRIGGER' });
    await expect(runtime.emit('nope', {})).rejects.toMatchObject({ code: 'UNKNOWN_TRIGGER' });
  });
});

describe('ctx.waitUntil and stop()', () => {
  it('stop waits for waitUntil promises; a rejection is logged, not lost', async () => {
    const logs: LogEntry[] = [];
    let finished = false;
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        bg: defineTrigger({
          source: email,
          handle: (_e, ctx) => {
            ctx.waitUntil(new Promise((r) => setTimeout(r, 30)).then(() => void (finished = true)));
            ctx.waitUntil(Promise.reject(new Error('background broke')));
          },
        }),
      },
    });
    runtime.onLog((entry) => logs.push(entry));
    await runtime.dispatch('bg', {});
    expect(finished).toBe(false);
    await runtime.stop();
    expect(finished).toBe(true);
    expect(logs.some((l) => l.level === 'error' && l.message.includes('background broke') && l.trigger === 'bg')).toBe(
      true,
    );
  });

  it('stop aborts work still running at its deadline', async () => {
    let signal: AbortSignal | undefined;
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        stuck: defineTrigger({
          source: email,
          config: { timeout: '10m', retries: 0 },
          handle: (_e, ctx) => {
            signal = ctx.signal;
            return new Promise(() => {});
          },
        }),
      },
    });
    const run = runtime.dispatch('stuck', {});
    await runtime.stop({ timeout: '20ms' });
    expect(signal?.aborted).toBe(true);
    await expect(run).rejects.toMatchObject({ code: 'RUNTIME_STOPPED' });
  });

  it('a ctx.signal first read after the run was aborted is already aborted, with the same reason', async () => {
    let context: TriggerContext | undefined;
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        stuck: defineTrigger({
          source: email,
          config: { timeout: '10m', retries: 0 },
          handle: (_e, ctx) => {
            context = ctx;
            return new Promise(() => {});
          },
        }),
      },
    });
    const run = runtime.dispatch('stuck', {});
    await runtime.stop({ timeout: '20ms' });
    const error = await run.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RUNTIME_STOPPED' });
    // The signal is built on first read, after the abort.
    expect(context?.signal.aborted).toBe(true);
    expect(context?.signal.reason).toBe(error);
  });
});

describe('emit', () => {
  it('chains to another trigger with the same trace id', async () => {
    const seen: Array<{ trigger: string; traceId: string; event: unknown }> = [];
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        first: defineTrigger({
          source: email,
          handle: async (_e, ctx) => {
            seen.push({ trigger: ctx.trigger, traceId: ctx.traceId, event: null });
            await ctx.emit('second', { hello: 'world' });
          },
        }),
        second: defineTrigger({
          source: { type: 'sqldb', database: 'DB' },
          handle: (event, ctx) => void seen.push({ trigger: ctx.trigger, traceId: ctx.traceId, event }),
        }),
      },
    });
    await runtime.dispatch('first', {});
    await runtime.drain();
    expect(seen).toHaveLength(2);
    expect(seen[1]).toMatchObject({ trigger: 'second', event: { hello: 'world' } });
    expect(seen[1]!.traceId).toBe(seen[0]!.traceId);
  });
});
