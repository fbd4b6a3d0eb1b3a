import { createSteps, memoryStepStore } from '../runtime/steps.js';
import { randomHex } from '../trace.js';
import type { TriggerContext } from '../types.js';

/** A context that records what the handler did with it. */
export interface MockTriggerContext<Env = Record<string, any>> extends TriggerContext<Env> {
  /** `emit` calls, in order. */
  readonly emitted: Array<{ trigger: string; payload: unknown }>;
  /** Promises passed to `waitUntil`. */
  readonly waitUntilPromises: Promise<unknown>[];
  /** Whether `noRetry()` was called. */
  readonly noRetryCalled: boolean;
  /** Waits for every `waitUntil` promise and returns their outcomes. */
  settle(): Promise<PromiseSettledResult<unknown>[]>;
  /** Aborts `signal`, as a timeout would. */
  abort(reason?: unknown): void;
}

/** Fields of a mock context; all optional. */
export interface MockTriggerContextInit<Env> {
  env?: Env;
  traceId?: string;
  attempt?: number;
  trigger?: string;
}

/**
 * A {@link TriggerContext} for unit tests. Defaults: env `{}`, a random trace
 * id, attempt 1, trigger `'test'`. `emit` resolves at once and records the call.
 *
 * @example
 * ```ts
 * const ctx = mockTriggerContext({ env: { mailer } });
 * await definition.handle(mockQueueEvent(), ctx);
 * expect(ctx.emitted).toEqual([{ trigger: 'audit', payload: { ok: true } }]);
 * await ctx.settle();
 * ```
 */
export function mockTriggerContext<Env = Record<string, any>>(
  init: MockTriggerContextInit<Env> = {},
): MockTriggerContext<Env> {
  const controller = new AbortController();
  const emitted: Array<{ trigger: string; payload: unknown }> = [];
  const waitUntilPromises: Promise<unknown>[] = [];
  let noRetryCalled = false;
  return {
    env: (init.env ?? {}) as Env,
    traceId: init.traceId ?? randomHex(16),
    attempt: init.attempt ?? 1,
    trigger: init.trigger ?? 'test',
    signal: controller.signal,
    emitted,
    waitUntilPromises,
    get noRetryCalled() {
      return noRetryCalled;
    },
    waitUntil(promise) {
      waitUntilPromises.push(promise);
    },
    async emit(trigger, payload) {
      emitted.push({ trigger, payload });
    },
    noRetry() {
      noRetryCalled = true;
    },
    step: createSteps({ store: memoryStepStore(), runId: 'mock' }),
    settle: () => Promise.allSettled(waitUntilPromises),
    abort: (reason) => controller.abort(reason),
  };
}
