import { TriggerError, TriggerTimeoutError } from '../errors.js';
import { BoundedRun, isCancel, runBounded, runHandlerBounded, type Bounded, type RunBounds } from './bounded-run.js';
import { endInvocationSpan, isUntracedSpan, startInvocationSpan, type InvocationSpan } from '../otel.js';
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
import type { Gate } from './gate.js';
import type { RunningAttempt } from './cancels.js';
import { Deadlines } from './deadlines.js';

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
  const gate = core.gateOf(trigger);
  const fleet = holdsFleetSlots(core, trigger, key);
  // Most runs: no key, no fleet slot and a free slot here: the run gives its slot back itself (no closure and
  // no promise around it).
  if (key === undefined && !fleet && gate.tryEnter()) return runNow(core, trigger, event, options, gate);
  const run = fleet
    ? () => withFleetSlots(core, trigger, key, () => runNow(core, trigger, event, options))
    : () => runNow(core, trigger, event, options);
  return gate.run(key, run, settledOf);
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

/**
 * Runs the attempt. With `slot`, it holds a slot {@link Gate.tryEnter} took and gives it back when it ends, or
 * once its handler settles when that is later (`AttemptResult.settled`). No async frame: while the handler
 * runs, the attempt is one {@link Attempt} and one reaction waiting for its run.
 */
function runNow(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  event: unknown,
  options: AttemptOptions,
  slot?: Gate,
): Promise<AttemptResult> {
  try {
    const { definition, name } = trigger;
    const { observability } = definition.config;
    const invocation = startInvocationSpan(
      `trigger ${name}`,
      observability.tracing
        ? { 'trigger.name': name, 'trigger.source': definition.source.type, 'trigger.attempt': options.attempt }
        : NO_ATTRIBUTES,
      options.parent,
      observability.tracing,
    );
    const module = definition.sandbox?.module;
    const stepScope = options.steps ?? { store: core.steps, runId: `attempt:${randomHex(16)}` };
    const attempt = new Attempt(core, trigger, options, invocation, stepScope, slot);
    const ctx: TriggerContext<any> = Object.freeze(new AttemptContext(attempt));
    if (observability.metrics) core.instruments.invocations.add(1, metricAttributesOf(trigger));
    attempt.begin();
    const run = module
      ? runBounded(
          attempt,
          () =>
            (attempt.sandboxed = runSandboxed({
              pool: core.sandboxOf(trigger),
              module,
              source: definition.source,
              event,
              ctx,
              log: (entry) => attempt.log(entry),
            })).result,
        )
      : // Without tracing the active context is the one the handler would see anyway: no `with` around it.
        observability.tracing
        ? runBounded(attempt, () => otelContext.with(invocation.context, () => definition.handle(event as never, ctx)))
        : runHandlerBounded(attempt, definition, event as never, ctx);
    return run.then((ran) => attempt.conclude(ran));
  } catch (error) {
    slot?.leave();
    return Promise.reject(error as Error);
  }
}

/** The metric attributes of a trigger's runs. */
function metricAttributesOf(trigger: RegisteredTrigger): Record<string, string | number> {
  return { 'trigger.name': trigger.name, 'trigger.source': trigger.definition.source.type };
}

/**
 * One attempt in flight: its bounded run (timeout, `runtime.cancel(id)`, `stop()`), its logs and what its end
 * needs, in one object (the handler's `ctx` reads it too).
 */
class Attempt extends BoundedRun implements RunningAttempt {
  readonly logs: LogEntry[] = [];
  /** Links of the running attempts' list (`CancelRegistry`). */
  previous: RunningAttempt | undefined = undefined;
  next: RunningAttempt | undefined = undefined;
  /** The sandboxed run, when the trigger has a sandbox. */
  sandboxed: SandboxRun | undefined = undefined;
  private startedAt = 0;
  private startedAtMs = 0;

  constructor(
    readonly core: RuntimeCore,
    readonly trigger: RegisteredTrigger,
    readonly options: AttemptOptions,
    readonly invocation: InvocationSpan,
    readonly stepScope: StepScope,
    private readonly slot: Gate | undefined,
  ) {
    super(boundsOf(trigger));
    if (trigger.definition.sandbox?.module)
      this.bounds = { ...this.bounds, terminate: () => this.sandboxed?.terminate() ?? Promise.resolve() };
  }

  get traceId(): string {
    return this.invocation.position.traceId;
  }

  /** The runs (message ids) this attempt serves, so `runtime.cancel(id)` finds it. */
  get runIds(): readonly string[] {
    return this.options.runIds ?? NO_RUN_IDS;
  }

  /** Logs `entry` for this run and keeps it in its `logs` (its tail and history record). */
  log(entry: Omit<LogEntry, 'timestamp'>): void {
    this.logs.push(this.core.logger.log({ trigger: this.trigger.name, traceId: this.traceId, ...entry }));
  }

  /** Registers the run (cancel, stop) and notes when it starts; call right before the handler starts. */
  begin(): void {
    this.core.cancels.add(this);
    this.startedAt = performance.now();
    this.startedAtMs = Date.now();
  }

  /** The attempt's result once its run is over; gives back its slot (when the handler settles, if later). */
  conclude(ran: Bounded): AttemptResult {
    // What the slot waits for (a handler still running past its cap).
    let held: Promise<void> | undefined;
    try {
      const { core, trigger, options, logs, stepScope } = this;
      const { definition, name } = trigger;
      const { observability } = definition.config;
      const source = definition.source.type;
      const traceId = this.traceId;
      core.cancels.remove(this);
      const error = ran.error;
      if (ran.unsettled) {
        core.health.unsettled({
          trigger: name,
          traceId,
          attempt: options.attempt,
          startedAt: new Date(this.startedAtMs),
        });
        core.logger.log({
          level: 'error',
          message: `"${name}" attempt ${options.attempt} still runs ${definition.config.timeout} + ${definition.config.gracePeriod} after it started, ignoring ctx.signal; the runtime is now unhealthy (runtime.health()) and should be restarted`,
          trigger: name,
          traceId,
          error,
          data: { code: 'TRIGGER_TIMEOUT_UNSETTLED', attempt: options.attempt },
        });
      }
      const durationMs = performance.now() - this.startedAt;
      if (error instanceof StepSleep) {
        this.log({ level: 'info', message: `attempt ${options.attempt} suspended: ${error.message}` });
      } else if (error !== undefined) {
        this.log({ level: 'error', message: `attempt ${options.attempt} failed: ${messageOf(error)}`, error });
      }
      if (observability.metrics) {
        const metricAttributes = metricAttributesOf(trigger);
        core.instruments.duration.record(durationMs, metricAttributes);
        if (error !== undefined && !(error instanceof StepSleep)) core.instruments.failures.add(1, metricAttributes);
      }
      if (!isUntracedSpan(this.invocation.span)) endInvocationSpan(this.invocation.span, error);
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
          startedAt: new Date(this.startedAtMs),
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
        noRetry: this.noRetry,
        position: this.invocation.position,
        durationMs,
      };
      if (error === undefined) outcome.value = ran.value;
      else outcome.error = error;
      if (ran.settled) outcome.settled = held = ran.settled;
      return outcome;
    } finally {
      this.slot?.leave(held);
    }
  }
}

/**
 * A handler's `ctx`: own data properties, and `signal`, `step`, `waitUntil`, `emit` and `noRetry` as getters of
 * the class, built on first read (the methods do not use `this`, so they may be called detached). A frozen
 * instance keeps a fast shape (a frozen literal with getters becomes a dictionary, about 0.5 KB more per run in
 * flight), and most handlers read none of them.
 */
class AttemptContext {
  readonly env: unknown;
  readonly trigger: string;
  readonly traceId: string;
  readonly attempt: number;
  readonly #run: Attempt;
  #steps: TriggerSteps | undefined = undefined;
  #waitUntil: TriggerContext<any>['waitUntil'] | undefined = undefined;
  #emit: TriggerContext<any>['emit'] | undefined = undefined;
  #noRetry: TriggerContext<any>['noRetry'] | undefined = undefined;

  constructor(run: Attempt) {
    this.env = run.core.env;
    this.trigger = run.trigger.name;
    this.traceId = run.traceId;
    this.attempt = run.options.attempt;
    this.#run = run;
  }

  /** Built on first read: an AbortSignal (an EventTarget) costs µs per run, and most handlers never read it. */
  get signal(): AbortSignal {
    return this.#run.signal;
  }

  /** Built on first read: most runs take no step, and the step API is dozens of closures. */
  get step(): TriggerSteps {
    return (this.#steps ??= createSteps(this.#run.stepScope, this.#run.core.stepHost));
  }

  /** Keeps the runtime's `stop()` waiting for `promise`; a rejection is logged. */
  get waitUntil(): TriggerContext<any>['waitUntil'] {
    const core = this.#run.core;
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
    const run = this.#run;
    return (this.#emit ??= (target: string, payload: unknown) => {
      run.log({ level: 'info', message: `emit → ${target}`, data: { event: 'emit', target, payload } });
      return run.core.emit(run.invocation.position, target, payload);
    }) as TriggerContext<any>['emit'];
  }

  /** Marks the attempt as not to be retried. */
  get noRetry(): TriggerContext<any>['noRetry'] {
    const run = this.#run;
    return (this.#noRetry ??= () => {
      run.noRetry = true;
    });
  }
}

const NO_ATTRIBUTES: Record<string, string | number> = Object.freeze({});
const NO_RUN_IDS: readonly string[] = Object.freeze([]);

/** Per trigger, the bounds of its runs (one object shared by every run without a sandbox). */
const boundsByTrigger = new WeakMap<RegisteredTrigger, RunBounds>();

function boundsOf(trigger: RegisteredTrigger): RunBounds {
  let bounds = boundsByTrigger.get(trigger);
  if (!bounds) {
    const { timeoutMs, gracePeriodMs } = trigger.definition.config;
    bounds = Object.freeze({
      name: trigger.name,
      timeoutMs,
      graceMs: gracePeriodMs,
      deadlines: new Deadlines<BoundedRun>(timeoutMs),
    });
    boundsByTrigger.set(trigger, bounds);
  }
  return bounds;
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
