import { TriggerError, TriggerTimeoutError } from '../errors.js';
import { endInvocationSpan, startInvocationSpan } from '../otel.js';
import { context as otelContext } from '@opentelemetry/api';
import type { TraceParent } from '../trace.js';
import type { LogEntry, TailOutcome, TriggerContext } from '../types.js';
import type { RuntimeCore } from './core.js';
import type { RegisteredTrigger } from './registry.js';

/** How one attempt is run. */
export interface AttemptOptions {
  /** 1-based attempt number. */
  attempt: number;
  /** Trace to continue. */
  parent?: TraceParent | undefined;
  /** Request details for webhook tail logs. */
  request?: { method: string; url: string } | undefined;
}

/** What happened in one attempt. */
export interface AttemptResult {
  ok: boolean;
  error?: unknown;
  /** The handler called `ctx.noRetry()`. */
  noRetry: boolean;
  /** Trace position of the attempt's span (its trace id is `ctx.traceId`). */
  position: TraceParent;
  durationMs: number;
}

/**
 * Runs a handler once: builds the context, enforces the timeout through an
 * AbortSignal, records the span, metrics and tail log. Never rejects.
 */
export async function runAttempt(
  core: RuntimeCore,
  trigger: RegisteredTrigger,
  event: unknown,
  options: AttemptOptions,
): Promise<AttemptResult> {
  const { definition, name } = trigger;
  const { observability, timeoutMs } = definition.config;
  const source = definition.source.type;
  const metricAttributes = { 'trigger.name': name, 'trigger.source': source };
  const invocation = startInvocationSpan(
    `trigger ${name}`,
    { ...metricAttributes, 'trigger.attempt': options.attempt },
    options.parent,
    observability.tracing,
  );
  const traceId = invocation.position.traceId;
  const logs: LogEntry[] = [];
  const log = core.logger.scoped({ trigger: name, traceId }, logs);
  const controller = new AbortController();
  const onStop = () => controller.abort(core.stopSignal.reason);
  core.stopSignal.addEventListener('abort', onStop, { once: true });
  let noRetry = false;

  const ctx: TriggerContext<any> = Object.freeze({
    env: core.env,
    traceId,
    attempt: options.attempt,
    trigger: name,
    signal: controller.signal,
    waitUntil(promise: Promise<unknown>) {
      core.tracker.track(
        Promise.resolve(promise).catch((error: unknown) => {
          core.logger.log({ level: 'error', message: `waitUntil promise of "${name}" rejected: ${messageOf(error)}`, trigger: name, traceId, error });
        }),
      );
    },
    emit(target: string, payload: unknown) {
      log({ level: 'info', message: `emit → ${target}`, data: { event: 'emit', target, payload } });
      return core.emit(invocation.position, target, payload);
    },
    noRetry() {
      noRetry = true;
    },
  });

  if (observability.metrics) core.instruments.invocations.add(1, metricAttributes);
  const started = performance.now();
  let error: unknown;
  try {
    await withTimeout(
      () => otelContext.with(invocation.context, () => definition.handle(event as never, ctx)),
      timeoutMs,
      controller,
      name,
    );
  } catch (caught) {
    error = caught ?? new Error('handler threw a nullish value');
  } finally {
    core.stopSignal.removeEventListener('abort', onStop);
  }
  const durationMs = performance.now() - started;
  if (error !== undefined) {
    log({ level: 'error', message: `attempt ${options.attempt} failed: ${messageOf(error)}`, error });
  }
  if (observability.metrics) {
    core.instruments.duration.record(durationMs, metricAttributes);
    if (error !== undefined) core.instruments.failures.add(1, metricAttributes);
  }
  endInvocationSpan(invocation.span, error);
  if (source !== 'tail') {
    core.tail.record({
      outcome: outcomeOf(error),
      trigger: name,
      traceId,
      ...(options.request ? { method: options.request.method, url: options.request.url, status: error === undefined ? 200 : 500 } : {}),
      logs: logs.map(({ level, message, timestamp }) => ({ level, message, timestamp })),
      exceptions: error === undefined ? [] : [{ name: nameOf(error), message: messageOf(error), timestamp: new Date() }],
      timestamp: new Date(),
      durationMs,
    });
  }
  return { ok: error === undefined, ...(error === undefined ? {} : { error }), noRetry, position: invocation.position, durationMs };
}

/** Runs `fn`, aborting `controller` and rejecting with TriggerTimeoutError after `timeoutMs`, or with the abort reason. */
async function withTimeout(fn: () => unknown, timeoutMs: number, controller: AbortController, name: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const aborted = new Promise<never>((_, reject) => {
    timer = setTimeout(() => controller.abort(new TriggerTimeoutError(name, timeoutMs)), timeoutMs);
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  aborted.catch(() => {});
  try {
    await Promise.race([Promise.resolve().then(fn), aborted]);
  } finally {
    clearTimeout(timer);
  }
}

function outcomeOf(error: unknown): TailOutcome {
  if (error === undefined) return 'ok';
  if (error instanceof TriggerTimeoutError) return 'timeout';
  if (error instanceof TriggerError && error.code === 'RUNTIME_STOPPED') return 'canceled';
  return 'exception';
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function nameOf(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
