/**
 * OpenTelemetry for the auth core, through `@opentelemetry/api` only: a span per `auth.handler` request and
 * metrics for requests, sign-ins and their failures. Without a registered SDK every call is the API's no-op.
 * Names follow the OpenTelemetry semantic conventions for HTTP (`http.request.method`, `http.route`,
 * `http.response.status_code`); the `auth.*` attributes are ours.
 * @module
 * @internal
 */
import {
  context as otelContext,
  metrics,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Counter,
  type Histogram,
  type Span,
} from '@opentelemetry/api';
import type { AuthEventName, AuthEventPayloads } from './events.js';

const SCOPE = '@framework/auth';
const TRACEPARENT = /^00-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})$/;

/** The core's instruments. */
export interface AuthTelemetry {
  /** Starts the span of one `auth.handler` request; `end` records its outcome and duration. */
  startRequest(request: Request, route: string): { span: Span; end(status: number): void };
  /** Counts the sign-in outcome an event reports (a no-op for other events). */
  recordEvent<N extends AuthEventName>(name: N, payload: AuthEventPayloads[N]): void;
}

/**
 * Creates the instruments from the global providers. The metrics API has no proxy provider: register the SDK's
 * meter provider before `createAuth` (the tracer is looked up per request, so tracing may be registered later).
 */
export function createAuthTelemetry(): AuthTelemetry {
  const meter = metrics.getMeter(SCOPE);
  const requests: Histogram = meter.createHistogram('auth.request.duration', {
    description: 'Duration of auth.handler requests',
    unit: 'ms',
  });
  const signIns: Counter = meter.createCounter('auth.sign_ins', { description: 'Sign-ins that issued a session' });
  const failures: Counter = meter.createCounter('auth.sign_in_failures', { description: 'Refused sign-in attempts' });
  const signUps: Counter = meter.createCounter('auth.sign_ups', { description: 'Users created by a sign-in' });

  return {
    startRequest(request, route) {
      const started = performance.now();
      const method = request.method;
      const span = trace
        .getTracer(SCOPE)
        .startSpan(
          `${method} ${route}`,
          { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'http.route': route } },
          parentOf(request),
        );
      return {
        span,
        end(status) {
          span.setAttribute('http.response.status_code', status);
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          requests.record(performance.now() - started, {
            'http.request.method': method,
            'http.route': route,
            'http.response.status_code': status,
          });
        },
      };
    },
    recordEvent(name, payload) {
      const p = payload as { account?: { provider?: string } | null; provider?: string; reason?: string };
      const provider = p.account?.provider ?? p.provider ?? 'unknown';
      if (name === 'onSignIn') signIns.add(1, { 'auth.provider': provider });
      else if (name === 'onSignUp') signUps.add(1, { 'auth.provider': provider });
      else if (name === 'onSignInFailed')
        failures.add(1, { 'auth.provider': provider, 'auth.failure_reason': p.reason ?? 'unknown' });
    },
  };
}

/**
 * The parent of a request's span: the active span (an HTTP instrumentation's), else the W3C `traceparent` the
 * request carries (Trace Context §3.2), else none.
 */
function parentOf(request: Request) {
  const active = otelContext.active();
  if (trace.getSpan(active)) return active;
  const m = TRACEPARENT.exec(request.headers.get('traceparent')?.trim().toLowerCase() ?? '');
  if (!m || /^0+$/.test(m[1]!) || /^0+$/.test(m[2]!)) return ROOT_CONTEXT;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: m[1]!,
    spanId: m[2]!,
    traceFlags: Number.parseInt(m[3]!, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  });
}
