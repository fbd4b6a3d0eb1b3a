/**
 * The core's OpenTelemetry through a real SDK (in-memory exporter and reader): a span per request continuing the
 * caller's W3C trace, and the request, sign-in and failure metrics.
 */
import { context, metrics, trace, SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeFixture, EMAIL } from './testing/fixtures.js';

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const exporter = new InMemorySpanExporter();
const reader = new TestReader();

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});
afterAll(() => {
  trace.disable();
  metrics.disable();
  context.disable();
});

function points(collected: ResourceMetrics, name: string) {
  const metric = collected.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  return (metric?.dataPoints ?? []).map((p) => ({ attributes: p.attributes, value: p.value }));
}

describe('OpenTelemetry in the auth core', () => {
  it('records a server span per request, named by route template, continuing the caller traceparent', async () => {
    const f = await makeFixture('database');
    const traceId = 'a'.repeat(32);
    await f.auth.handler(
      new Request('http://app.test/auth/providers', { headers: { traceparent: `00-${traceId}-${'b'.repeat(16)}-01` } }),
    );
    await f.auth.handler(new Request('http://app.test/auth/nothing-here'));
    const spans = exporter.getFinishedSpans();
    const providers = spans.find((s) => s.name === 'GET /auth/providers')!;
    expect(providers.kind).toBe(SpanKind.SERVER);
    expect(providers.spanContext().traceId).toBe(traceId);
    expect(providers.parentSpanContext?.spanId).toBe('b'.repeat(16));
    expect(providers.attributes).toMatchObject({ 'http.route': '/auth/providers', 'http.response.status_code': 200 });
    expect(spans.find((s) => s.name === 'GET unmatched')?.attributes['http.response.status_code']).toBe(404);
  });

  it('counts sign-ins and failures by provider and reason, and times requests by route and status', async () => {
    const f = await makeFixture('database');
    const c = f.client();
    expect((await c.signIn(EMAIL, 'wrong password')).status).toBe(401);
    expect((await c.signIn()).status).toBe(200);
    const { resourceMetrics } = await reader.collect();
    expect(points(resourceMetrics, 'auth.sign_ins')).toContainEqual({
      attributes: { 'auth.provider': 'credentials' },
      value: 1,
    });
    expect(points(resourceMetrics, 'auth.sign_in_failures')).toContainEqual({
      attributes: { 'auth.provider': 'credentials', 'auth.failure_reason': 'invalid-credentials' },
      value: 1,
    });
    const durations = points(resourceMetrics, 'auth.request.duration').map((p) => p.attributes);
    expect(durations).toContainEqual({
      'http.request.method': 'POST',
      'http.route': '/auth/callback/:provider',
      'http.response.status_code': 401,
    });
    const spans = exporter.getFinishedSpans().filter((s) => s.name === 'POST /auth/callback/:provider');
    expect(spans.map((s) => s.attributes['http.response.status_code'])).toEqual([401, 200]);
  });

  it('loads the API lazily: a request span waits for it, and events recorded before it arrives are counted', async () => {
    vi.resetModules(); // a fresh telemetry module, whose API import has not started
    const { createAuthTelemetry } = await import('./telemetry.js');
    const telemetry = createAuthTelemetry();
    expect(telemetry.ready).toBeInstanceOf(Promise);
    telemetry.recordEvent('onSignIn', { account: { provider: 'early-bird' } } as never);
    await telemetry.ready;
    expect(telemetry.ready).toBeUndefined();
    const traced = telemetry.startRequest(new Request('http://app.test/auth/session'), '/auth/session');
    expect(traced.span.isRecording()).toBe(true);
    traced.end(200);
    const { resourceMetrics } = await reader.collect();
    expect(points(resourceMetrics, 'auth.sign_ins')).toContainEqual({
      attributes: { 'auth.provider': 'early-bird' },
      value: 1,
    });
  });
});
