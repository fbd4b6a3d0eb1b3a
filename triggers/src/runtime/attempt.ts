import { TriggerError, TriggerTimeoutError } from '../errors.js';
import { endInvocationSpan, startInvocationSpan } from '../otel.js';
import { context as otelContext } from '@opentelemetry/api';
import type { TraceParent } from '../trace.js';
import type { LogEntry, TailOutcome, TriggerContext, TriggerSteps } from '../types.js';
import type { RuntimeCore } from './core.js';
import type { RegisteredTrigger } from './registry.js';
import type { RunRecord } from './runs.js';
import { createSteps, StepSleep, type StepScope } from './steps.js';
import { randomHex } from '../trace.js';
import { runSandboxed } from '../sandbox/bridge.js';
import type { SandboxRun } from '../sandbox/pool.js';
import { holdsFleetSlots, withFleetSlots } from './fleet-gate.js';

/** How one attempt is run. */
export interface AttemptOptions {
  /** 1-based attempt number. */
  attempt: number;
  /** Trace to continue. */
  parent?: TraceParent | undefined;
  /** Request details for webhook tail logs. */
  request?: { method: string; url: string } | undefined;
  /** Where `ctx.step` keeps results; default: a run of its own (per attempt). */
  steps?: StepScope;
  /** The ids of the runs (message ids) this attempt serves, so `runtime.cancel(id)` can abort it. */
  runIds?: readonly string[];
}

/** What happened in one attempt. */
export interface AttemptResult {
  ok: boolean;
  /** The handler's return value when it succeeded (for a sandboxed handler, its structured clone). */
  value?: unknown;
  error?: unknown;
  /** The handler called `ctx.noRetry()`. */
  noRetry: boolean;
  /** Trace position of the attempt's span (its trace id is `ctx.traceId`). */
  position: TraceParent;
  durationMs: number;
  /**
   * Present when the result was reported while the handler still executes
   * (it outlived `timeout + gracePeriod`, or `stop()` reached its deadline):
   * resolves when the handler's promise really settles. The concurrency slot
   * (and key) of the run stays taken until then.
   */
  settled?: Promise<void>;
}

/**
 * Runs a handler once, within the trigger's `concurrency` and after earlier
 * runs of the same `concurrencyKey`: builds the context, enforces the timeout
 * through an AbortSignal, records the span, metrics and tail log. Never rejects.
 */
export function runAttempt(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  event: unknown,
  options: AttemptOptions,
): Promise<AttemptResult> {
  const key = concurrencyKeyOf(core, trigger, event);
  // Most runs hold no fleet slot: one closure, not two.
  const run = holdsFleetSlots(core, trigger, key)
    ? () => withFleetSlots(core, trigger, key, () => runNow(core, trigger, event, options))
    : () => runNow(core, trigger, event, options);
  return core.gateOf(trigger).run(key, run, settledOf);
}

/** A result reported while its handler still runs holds its slot until then (one function for every run). */
const settledOf = (result: AttemptResult) => result.settled;

function concurrencyKeyOf(core: RuntimeCore, trigger: RegisteredTrigger, event: unknown): string | undefined {
  const keyOf = trigger.definition.config.concurrencyKey;
  if (!keyOf) return undefined;
  try {
    const key = keyOf(event);
    return key === undefined || key === null ? undefined : String(key);
  } catch (error) {
    core.logger.log({
      level: 'warn',
      message: `concurrencyKey of "${trigger.name}" threw (${messageOf(error)}); running unkeyed`,
      trigger: trigger.name,
      error,
    });
    return undefined;
  }
}

async function runNow(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  event: unknown,
  options: AttemptOptions,
): Promise<AttemptResult> {
  const { definition, name } = trigger;
  const { observability, timeoutMs } = definition.config;
  const source = definition.source.type;
  // Built only when metrics or tracing read them.
  const metricAttributes = observability.metrics ? { 'trigger.name': name, 'trigger.source': source } : NO_ATTRIBUTES;
  const invocation = startInvocationSpan(
    `trigger ${name}`,
    observability.tracing
      ? { 'trigger.name': name, 'trigger.source': source, 'trigger.attempt': options.attempt }
      : NO_ATTRIBUTES,
    options.parent,
    observability.tracing,
  );
  const traceId = invocation.position.traceId;
  const logs: LogEntry[] = [];
  const controller = new RunAbort();
  const stopping = stopWatchOf(core.stopSignal);
  stopping.add(controller);
  const runIds = options.runIds ?? NO_RUN_IDS;
  for (const id of runIds) core.cancels.add(id, controller);
  const stepScope = options.steps ?? { store: core.steps, runId: `attempt:${randomHex(16)}` };

  const ctx: TriggerContext<any> = Object.freeze(
    new AttemptContext(core, name, traceId, options.attempt, controller, stepScope, invocation.position, logs),
  );

  if (observability.metrics) core.instruments.invocations.add(1, metricAttributes);
  const started = performance.now();
  const startedAtMs = Date.now();
  let sandboxed: SandboxRun | undefined;
  const module = definition.sandbox?.module;
  const run = await runBounded(
    module
      ? () =>
          (sandboxed = runSandboxed({
            pool: core.sandboxOf(trigger),
            module,
            source: definition.source,
            event,
            ctx,
            log: (entry) => logTo(core, name, traceId, logs, entry),
          })).result
      : // Without tracing the active context is the one the handler would see anyway: no `with` around it.
        observability.tracing
        ? () => otelContext.with(invocation.context, () => definition.handle(event as never, ctx))
        : () => definition.handle(event as never, ctx),
    {
      timeoutMs,
      graceMs: definition.config.gracePeriodMs,
      controller,
      name,
      ...(module ? { terminate: () => sandboxed?.terminate() ?? Promise.resolve() } : {}),
    },
  );
  stopping.delete(controller);
  for (const id of runIds) core.cancels.remove(id, controller);
  const error = run.error;
  if (run.unsettled) {
    core.health.unsettled({ trigger: name, traceId, attempt: options.attempt, startedAt: new Date(startedAtMs) });
    core.logger.log({
      level: 'error',
      message: `"${name}" attempt ${options.attempt} still runs ${definition.config.timeout} + ${definition.config.gracePeriod} after it started, ignoring ctx.signal; the runtime is now unhealthy (runtime.health()) and should be restarted`,
      trigger: name,
      traceId,
      error,
      data: { code: 'TRIGGER_TIMEOUT_UNSETTLED', attempt: options.attempt },
    });
  }
  const durationMs = performance.now() - started;
  if (error instanceof StepSleep) {
    logTo(core, name, traceId, logs, {
      level: 'info',
      message: `attempt ${options.attempt} suspended: ${error.message}`,
    });
  } else if (error !== undefined) {
    logTo(core, name, traceId, logs, {
      level: 'error',
      message: `attempt ${options.attempt} failed: ${messageOf(error)}`,
      error,
    });
  }
  if (observability.metrics) {
    core.instruments.duration.record(durationMs, metricAttributes);
    if (error !== undefined && !(error instanceof StepSleep)) core.instruments.failures.add(1, metricAttributes);
  }
  endInvocationSpan(invocation.span, error);
  if (source !== 'tail' && core.tail.listening) {
    core.tail.record({
      outcome: outcomeOf(error),
      trigger: name,
      traceId,
      ...(options.request
        ? { method: options.request.method, url: options.request.url, status: error === undefined ? 200 : 500 }
        : {}),
      logs: logs.map(({ level, message, timestamp }) => ({ level, message, timestamp })),
      exceptions:
        error === undefined ? [] : [{ name: nameOf(error), message: messageOf(error), timestamp: new Date() }],
      timestamp: new Date(),
      durationMs,
    });
  }
  if (core.runs.active) {
    // A plain literal and one added field, no spread: this runs once per attempt while the dashboard listens.
    const record: RunRecord = {
      id: core.runs.nextId(),
      trigger: name,
      source,
      attempt: options.attempt,
      traceId,
      status: error instanceof StepSleep ? 'suspended' : outcomeOf(error),
      startedAt: new Date(startedAtMs),
      durationMs,
      logs,
    };
    if (error !== undefined && !(error instanceof StepSleep)) record.error = messageOf(error);
    if ('runId' in stepScope) record.stepsId = stepScope.runId;
    core.runs.publish(record);
  }
  // One literal, fields added in place (no spread objects per run).
  const outcome: AttemptResult = {
    ok: error === undefined,
    noRetry: controller.noRetry,
    position: invocation.position,
    durationMs,
  };
  if (error === undefined) outcome.value = run.value;
  else outcome.error = error;
  if (run.settled) outcome.settled = run.settled;
  return outcome;
}

/** Logs `entry` for the run of trigger `name` and keeps it in the run's `logs` (its tail and history record). */
function logTo(
  core: RuntimeCore,
  name: string,
  traceId: string,
  logs: LogEntry[],
  entry: Omit<LogEntry, 'timestamp'>,
): void {
  logs.push(core.logger.log({ trigger: name, traceId, ...entry }));
}

/**
 * A handler's `ctx`: own data properties, and `signal`, `step`, `waitUntil`, `emit` and `noRetry` as getters of
 * the class, built on first read (the methods do not use `this`, so they may be called detached). A frozen
 * instance keeps a fast shape (a frozen literal with getters becomes a dictionary, about 0.5 KB more per run in
 * flight), and most handlers read none of them.
 */
class AttemptContext {
  readonly env: unknown;
  readonly #core: RuntimeCore;
  readonly #controller: RunAbort;
  readonly #stepScope: StepScope;
  readonly #position: TraceParent;
  readonly #logs: LogEntry[];
  #steps: TriggerSteps | undefined = undefined;
  #waitUntil: TriggerContext<any>['waitUntil'] | undefined = undefined;
  #emit: TriggerContext<any>['emit'] | undefined = undefined;
  #noRetry: TriggerContext<any>['noRetry'] | undefined = undefined;

  constructor(
    core: RuntimeCore,
    readonly trigger: string,
    readonly traceId: string,
    readonly attempt: number,
    controller: RunAbort,
    stepScope: StepScope,
    position: TraceParent,
    logs: LogEntry[],
  ) {
    this.env = core.env;
    this.#core = core;
    this.#controller = controller;
    this.#stepScope = stepScope;
    this.#position = position;
    this.#logs = logs;
  }

  /** Built on first read: an AbortSignal (an EventTarget) costs µs per run, and most handlers never read it. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Built on first read: most runs take no step, and the step API is dozens of closures. */
  get step(): TriggerSteps {
    return (this.#steps ??= createSteps(this.#stepScope, this.#core.stepHost));
  }

  /** Keeps the runtime's `stop()` waiting for `promise`; a rejection is logged. */
  get waitUntil(): TriggerContext<any>['waitUntil'] {
    const core = this.#core;
    const { trigger, traceId } = this;
    return (this.#waitUntil ??= (promise: Promise<unknown>) => {
      core.tracker.track(
        Promise.resolve(promise).catch((error: unknown) => {
          core.logger.log({
            level: 'error',
            message: `waitUntil promise of "${trigger}" rejected: ${messageOf(error)}`,
            trigger,
            traceId,
            error,
          });
        }),
      );
    });
  }

  /** Emits to another trigger, continuing this run's trace. */
  get emit(): TriggerContext<any>['emit'] {
    const core = this.#core;
    const position = this.#position;
    const logs = this.#logs;
    const { trigger, traceId } = this;
    return (this.#emit ??= (target: string, payload: unknown) => {
      logTo(core, trigger, traceId, logs, {
        level: 'info',
        message: `emit → ${target}`,
        data: { event: 'emit', target, payload },
      });
      return core.emit(position, target, payload);
    }) as TriggerContext<any>['emit'];
  }

  /** Marks the attempt as not to be retried. */
  get noRetry(): TriggerContext<any>['noRetry'] {
    const controller = this.#controller;
    return (this.#noRetry ??= () => {
      controller.noRetry = true;
    });
  }
}

const NO_ATTRIBUTES: Record<string, string | number> = Object.freeze({});
const NO_RUN_IDS: readonly string[] = Object.freeze([]);

/** Per stop signal (one per runtime), the attempts it aborts: one listener for all, not one per attempt. */
const stopWatches = new WeakMap<AbortSignal, Set<RunAbort>>();

function stopWatchOf(signal: AbortSignal): Set<RunAbort> {
  let watch = stopWatches.get(signal);
  if (!watch) {
    const attempts = (watch = new Set());
    stopWatches.set(signal, attempts);
    signal.addEventListener('abort', () => [...attempts].forEach((attempt) => attempt.abort(signal.reason)), {
      once: true,
    });
  }
  return watch;
}

/**
 * The abort state of one attempt (timeout, `runtime.cancel(id)`, `stop()` reaching its deadline), with the
 * handler's `ctx.signal` built only when read: the first `abort(reason)` wins, as with an AbortController,
 * and a signal built later starts aborted with that reason.
 */
export class RunAbort {
  aborted = false;
  /** The handler called `ctx.noRetry()`. */
  noRetry = false;
  reason: unknown = undefined;
  /** Called once, at the first abort (runBounded's wait). */
  onAbort: (() => void) | undefined = undefined;
  private controller: AbortController | undefined = undefined;

  /** The handler's `ctx.signal`, created on first read. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    // AbortController's own default reason when none is given.
    this.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    this.controller?.abort(this.reason);
    const onAbort = this.onAbort;
    this.onAbort = undefined;
    onAbort?.();
  }
}

/** A handler run's outcome: its value, or what it threw. */
type Ran = { value: unknown; error: unknown };

/** The outcome of a handler that returned (module functions: no closures per run). */
const ranValue = (value: unknown): Ran => ({ value, error: undefined });
/** The outcome of a handler that threw or rejected. */
const ranError = (caught: unknown): Ran => ({
  value: undefined,
  error: caught ?? new Error('handler threw a nullish value'),
});

/** The timeout of a run (a module function and arguments: no closure per run). */
function abortOnTimeout(controller: RunAbort, name: string, timeoutMs: number): void {
  controller.abort(new TriggerTimeoutError(name, timeoutMs));
}

/** How {@link runBounded} bounds a handler run. */
interface Bounds {
  timeoutMs: number;
  /** How long to wait for the run to settle after `controller` aborted. */
  graceMs: number;
  controller: RunAbort;
  name: string;
  /** Ends the run at once (a sandboxed run: terminates its worker). */
  terminate?: () => Promise<void>;
}

/**
 * Runs `fn` until it settles. After `timeoutMs` it aborts `controller` and
 * then keeps waiting for the run to settle, at most `graceMs` more, so the caller never
 * starts a retry while the previous run still executes. Resolves with the
 * handler's error, the abort reason when it was aborted (at once when the
 * reason is not the timeout, i.e. `stop()` reached its deadline), or
 * `TRIGGER_TIMEOUT_UNSETTLED` with `unsettled: true` when the run outlived the
 * cap. With `terminate` (a sandboxed run), a run that outlives the cap, or
 * is still running when `stop()` reaches its deadline, is terminated instead:
 * `TRIGGER_TIMEOUT_TERMINATED` (or the stop reason), settled at once.
 * When it resolves before the run settled, `settled` resolves once the run
 * does. Never rejects.
 */
function runBounded(fn: () => unknown, bounds: Bounds): Promise<Bounded> {
  const { controller, timeoutMs, name } = bounds;
  const timer = setTimeout(abortOnTimeout, timeoutMs, controller, name, timeoutMs);
  // The handler starts now (a synchronous throw is its error), not a microtask later.
  let started: unknown;
  try {
    started = fn();
  } catch (caught) {
    started = Promise.reject(caught as Error);
  }
  const running = Promise.resolve(started).then(ranValue, ranError);
  // One promise settled by whichever comes first, the run or an abort (no Promise.race and its reactions), and
  // no async frame of ours held while the handler runs.
  return new Promise<Ran | 'aborted'>((resolve) => {
    if (controller.aborted) return resolve('aborted');
    controller.onAbort = () => resolve('aborted');
    void running.then(resolve);
  }).then((first) => {
    clearTimeout(timer);
    controller.onAbort = undefined;
    if (first !== 'aborted') return { value: first.value, error: first.error, unsettled: false };
    return afterAbort(running, bounds);
  });
}

/** What {@link runBounded} resolves with. */
interface Bounded {
  value?: unknown;
  error?: unknown;
  unsettled: boolean;
  settled?: Promise<void>;
}

/** The rest of {@link runBounded} once `bounds.controller` aborted before the run settled. */
async function afterAbort(running: Promise<Ran>, bounds: Bounds): Promise<Bounded> {
  const { controller, timeoutMs, graceMs, name } = bounds;
  const reason: unknown = controller.reason;
  // stop() reaching its deadline is the caller's own cap: report at once. A timeout or a cancel waits for
  // the grace period.
  const settledLater = running.then(() => undefined);
  if (!(reason instanceof TriggerTimeoutError) && !isCancel(reason)) {
    if (!bounds.terminate) return { error: reason, unsettled: false, settled: settledLater };
    await bounds.terminate();
    return { error: reason, unsettled: false };
  }
  let grace: ReturnType<typeof setTimeout> | undefined;
  const capped = new Promise<'capped'>((resolve) => {
    grace = setTimeout(() => resolve('capped'), graceMs);
  });
  const settled = await Promise.race([running, capped]);
  clearTimeout(grace);
  if (settled !== 'capped') return { error: reason, unsettled: false };
  if (bounds.terminate) {
    await bounds.terminate();
    if (isCancel(reason)) return { error: reason, unsettled: false };
    return {
      error: new TriggerError(
        `Trigger "${name}" did not settle within ${graceMs} ms after its signal was aborted; its worker was terminated`,
        {
          code: 'TRIGGER_TIMEOUT_TERMINATED',
          retryable: true,
          context: { trigger: name, timeoutMs, gracePeriodMs: graceMs },
          cause: reason,
        },
      ),
      unsettled: false,
    };
  }
  return {
    error: new TriggerError(`Trigger "${name}" did not settle within ${graceMs} ms after its signal was aborted`, {
      code: 'TRIGGER_TIMEOUT_UNSETTLED',
      retryable: true,
      context: { trigger: name, timeoutMs, gracePeriodMs: graceMs },
      cause: reason,
    }),
    unsettled: true,
    settled: settledLater,
  };
}

function isCancel(reason: unknown): boolean {
  return reason instanceof TriggerError && reason.code === 'RUN_CANCELED';
}

function outcomeOf(error: unknown): TailOutcome {
  if (error === undefined) return 'ok';
  if (error instanceof TriggerTimeoutError) return 'timeout';
  if (error instanceof TriggerError && error.code === 'TRIGGER_TIMEOUT_UNSETTLED') return 'timeout';
  if (error instanceof TriggerError && error.code === 'TRIGGER_TIMEOUT_TERMINATED') return 'timeout';
  if (error instanceof TriggerError && error.code === 'RUNTIME_STOPPED') return 'canceled';
  if (isCancel(error)) return 'canceled';
  return 'exception';
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
