/**
 * OpenTelemetry for the auth core, through `@opentelemetry/api` only: a span per `auth.handler` request and
 * metrics for requests, sign-ins and their failures. Without a registered SDK every call is the API's no-op.
 * Names follow the OpenTelemetry semantic conventions for HTTP (`http.request.method`, `http.route`,
 * `http.response.status_code`); the `auth.*` attributes are ours.
 *
 * The API loads lazily (issue 39: it is about 45 CommonJS modules, some 17 ms of a cold import): `createAuth` starts
 * its `import()`, and the handler awaits it before its first request only if it has not arrived yet. Events recorded
 * before it arrives (server-side `auth.api` calls) are counted once it has.
 * @module
 * @internal
 */
import type { Counter, Histogram, Span } from '@opentelemetry/api';
import type { AuthEventName, AuthEventPayloads } from './events.js';

type OtelApi = typeof import('./telemetry-api.js');

const SCOPE = '@framework/auth';
const TRACEPARENT = /^00-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})$/;
/** Events recorded before the API has loaded, kept to be counted once it has (beyond this, dropped). */
const PENDING_LIMIT = 1000;

let loadedApi: OtelApi | undefined;
let loadingApi: Promise<OtelApi> | undefined;

/** Loads `@opentelemetry/api` (the parts in `telemetry-api.ts`) once per process, for every auth instance. */
function loadApi(): Promise<OtelApi> {
  return (loadingApi ??= import('./telemetry-api.js').then((api) => (loadedApi = api)));
}

/** The core's instruments. */
export interface AuthTelemetry {
  /**
   * Settles once the OpenTelemetry API has loaded (never rejects: a failed load leaves telemetry off); `undefined`
   * once it has, so the handler awaits nothing per request.
   */
  readonly ready: Promise<void> | undefined;
  /**
   * Starts the span of one `auth.handler` request; `end` records its outcome and duration. Before `ready` has
   * settled, a span that records nothing.
   */
  startRequest(request: Request, route: string): { span: Span; end(status: number): void };
  /** Runs `fn` with `span` as the active span (plainly before the API has loaded). */
  withSpan<T>(span: Span, fn: () => T): T;
  /** Counts the sign-in outcome an event reports (a no-op for other events). */
  recordEvent<N extends AuthEventName>(name: N, payload: AuthEventPayloads[N]): void;
}

type CounterName = 'signIns' | 'failures' | 'signUps';

interface Instruments {
  requests: Histogram;
  signIns: Counter;
  failures: Counter;
  signUps: Counter;
}

/** A span that records nothing, for a request served before the API has loaded (or when it failed to). */
const NO_SPAN = {
  spanContext: () => ({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 }),
  setAttribute: () => NO_SPAN,
  setAttributes: () => NO_SPAN,
  addEvent: () => NO_SPAN,
  addLink: () => NO_SPAN,
  addLinks: () => NO_SPAN,
  setStatus: () => NO_SPAN,
  updateName: () => NO_SPAN,
  end: () => {},
  isRecording: () => false,
  recordException: () => {},
} as Span;

/**
 * Creates the instruments from the global providers, once the API has loaded (its `import()` starts here). The
 * metrics API has no proxy provider: register the SDK's meter provider before `createAuth` (the tracer is looked
 * up per request, so tracing may be registered later).
 */
export function createAuthTelemetry(): AuthTelemetry {
  let api: OtelApi | undefined;
  let instruments: Instruments | undefined;
  let pending: Array<[CounterName, Record<string, string>]> = [];

  function start(loaded: OtelApi): void {
    api = loaded;
    const meter = loaded.metrics.getMeter(SCOPE);
    instruments = {
      requests: meter.createHistogram('auth.request.duration', {
        description: 'Duration of auth.handler requests',
        unit: 'ms',
      }),
      signIns: meter.createCounter('auth.sign_ins', { description: 'Sign-ins that issued a session' }),
      failures: meter.createCounter('auth.sign_in_failures', { description: 'Refused sign-in attempts' }),
      signUps: meter.createCounter('auth.sign_ups', { description: 'Users created by a sign-in' }),
    };
    for (const [counter, attributes] of pending) instruments[counter].add(1, attributes);
    pending = [];
  }

  function count(counter: CounterName, attributes: Record<string, string>): void {
    if (instruments) instruments[counter].add(1, attributes);
    else if (pending.length < PENDING_LIMIT) pending.push([counter, attributes]);
  }

  const telemetry: { ready: Promise<void> | undefined } & Omit<AuthTelemetry, 'ready'> = {
    ready: undefined,
    startRequest(request, route) {
      if (!api || !instruments) return { span: NO_SPAN, end() {} };
      const { trace, SpanKind, SpanStatusCode } = api;
      const requests = instruments.requests;
      const started = performance.now();
      const method = request.method;
      const span = trace
        .getTracer(SCOPE)
        .startSpan(
          `${method} ${route}`,
          { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'http.route': route } },
          parentOf(api, request),
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
    withSpan(span, fn) {
      if (!api || span === NO_SPAN) return fn();
      const { context } = api;
      return context.with(api.trace.setSpan(context.active(), span), fn);
    },
    recordEvent(name, payload) {
      const p = payload as { account?: { provider?: string } | null; provider?: string; reason?: string };
      const provider = p.account?.provider ?? p.provider ?? 'unknown';
      if (name === 'onSignIn') count('signIns', { 'auth.provider': provider });
      else if (name === 'onSignUp') count('signUps', { 'auth.provider': provider });
      else if (name === 'onSignInFailed')
        count('failures', { 'auth.provider': provider, 'auth.failure_reason': p.reason ?? 'unknown' });
    },
  };
  if (loadedApi) start(loadedApi);
  else
    telemetry.ready = loadApi().then(
      (loaded) => {
        start(loaded);
        telemetry.ready = undefined;
      },
      () => {
        telemetry.ready = undefined;
      },
    );
  return telemetry;
}

/**
 * The parent of a request's span: the active span (an HTTP instrumentation's), else the W3C `traceparent` the
 * request carries (Trace Context §3.2), else none.
 */
function parentOf(api: OtelApi, request: Request) {
  const { context: otelContext, trace, ROOT_CONTEXT, TraceFlags } = api;
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
