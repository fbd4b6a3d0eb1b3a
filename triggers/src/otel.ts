import {
  context as otelContext,
  metrics,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Context,
  type Counter,
  type Histogram,
  type Span,
} from '@opentelemetry/api';
import { randomHex, type TraceParent } from './trace.js';

const SCOPE = '@framework/trigger';
const NOOP_SPAN = trace.wrapSpanContext({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 });

/** Counters and histograms of the runtime (attributes: `trigger.name`, `trigger.source`). */
export interface TriggerInstruments {
  invocations: Counter;
  failures: Counter;
  retries: Counter;
  /** Milliseconds per attempt. */
  duration: Histogram;
}

/**
 * Creates the runtime's instruments from the global meter provider. The metrics
 * API has no proxy provider, so register the SDK before creating the runtime.
 */
export function createInstruments(): TriggerInstruments {
  const meter = metrics.getMeter(SCOPE);
  return {
    invocations: meter.createCounter('trigger.invocations', { description: 'Handler attempts started' }),
    failures: meter.createCounter('trigger.failures', { description: 'Handler attempts that failed' }),
    retries: meter.createCounter('trigger.retries', { description: 'Attempts scheduled after a failure' }),
    duration: meter.createHistogram('trigger.duration', { description: 'Handler attempt duration', unit: 'ms' }),
  };
}

/** An invocation span and the trace position its children should use. */
export interface InvocationSpan {
  span: Span;
  /** Context with the span set, for running the handler in. */
  context: Context;
  /** Trace id and span id for children (emits, queue messages). */
  position: TraceParent;
}

/**
 * Starts the span of one attempt. With a `parent`, the span continues that
 * trace; otherwise it is a root span. When no SDK is registered (or tracing is
 * off) the span is a no-op and the trace id comes from `parent` or is random.
 */
export function startInvocationSpan(
  name: string,
  attributes: Record<string, string | number>,
  parent: TraceParent | undefined,
  tracing: boolean,
): InvocationSpan {
  // Tracing off: the handler runs without a `with` around it (the context is never read), nor a span to end.
  if (!tracing) return untraced(parent, NOOP_SPAN, ROOT_CONTEXT);
  const parentContext = parent
    ? trace.setSpanContext(ROOT_CONTEXT, {
        traceId: parent.traceId,
        spanId: parent.spanId ?? randomHex(8),
        traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
        isRemote: true,
      })
    : ROOT_CONTEXT;
  const span = trace.getTracer(SCOPE).startSpan(name, { kind: SpanKind.CONSUMER, attributes }, parentContext);
  const spanContext = span.spanContext();
  if (!trace.isSpanContextValid(spanContext)) return untraced(parent, span, otelContext.active());
  return {
    span,
    context: trace.setSpan(otelContext.active(), span),
    position: {
      traceId: spanContext.traceId,
      spanId: spanContext.spanId,
      sampled: (spanContext.traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED,
    },
  };
}

/** Ends a span with the attempt's outcome. */
export function endInvocationSpan(span: Span, error: unknown): void {
  if (error === undefined) {
    span.setStatus({ code: SpanStatusCode.OK });
  } else {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  }
  span.end();
}

/** Whether `span` is the no-op span of a run without tracing (ending it does nothing). */
export function isUntracedSpan(span: Span): boolean {
  return span === NOOP_SPAN;
}

function untraced(parent: TraceParent | undefined, span: Span, context: Context): InvocationSpan {
  let position: TraceParent;
  if (!parent) position = { traceId: randomHex(16), sampled: false };
  else {
    position = { traceId: parent.traceId, sampled: parent.sampled };
    if (parent.spanId) position.spanId = parent.spanId;
  }
  return { span, context, position };
}
