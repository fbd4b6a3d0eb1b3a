import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { AggregationTemporality, MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTrigger } from './define.js';
import { createTriggerRuntime } from './runtime/create.js';

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const exporter = new InMemorySpanExporter();
const reader = new TestReader();
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
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

describe('OpenTelemetry', () => {
  it('records a span per attempt with the context trace id, and chains emits into the same trace', async () => {
    const traceIds: string[] = [];
    const runtime = createTriggerRuntime({
      env: {},
      triggers: {
        parent: defineTrigger({
          source: { type: 'email' },
          config: { retries: 1, retryDelay: '1ms' },
          handle: async (_e, ctx) => {
            traceIds.push(ctx.traceId);
            if (ctx.attempt === 1) throw new Error('first attempt fails');
            await ctx.emit('child', {});
          },
        }),
        child: defineTrigger({ source: { type: 'email' }, handle: (_e, ctx) => void traceIds.push(ctx.traceId) }),
        quiet: defineTrigger({
          source: { type: 'email' },
          config: { observability: { tracing: false, metrics: false } },
          handle: () => {},
        }),
      },
    });
    await runtime.dispatch('parent', {});
    await runtime.dispatch('quiet', {});
    await runtime.drain();

    const spans = exporter.getFinishedSpans();
    const find = (name: string, attempt: number) =>
      spans.find((s) => s.attributes['trigger.name'] === name && s.attributes['trigger.attempt'] === attempt)!;
    expect(spans).toHaveLength(3);
    const [first, second, child] = [find('parent', 1), find('parent', 2), find('child', 1)];
    expect(first.name).toBe('trigger parent');
    expect(new Set(traceIds).size).toBe(1);
    expect(spans.every((s) => s.spanContext().traceId === traceIds[0])).toBe(true);
    expect(first.status.code).toBe(2); // ERROR
    expect(first.events.some((e) => e.name === 'exception')).toBe(true);
    expect(second.status.code).toBe(1); // OK
    expect(second.parentSpanContext?.spanId).toBe(first.spanContext().spanId);
    expect(child.parentSpanContext?.spanId).toBe(second.spanContext().spanId);

    const { resourceMetrics } = await reader.collect();
    const invocations = points(resourceMetrics, 'trigger.invocations');
    expect(invocations).toEqual([
      { attributes: { 'trigger.name': 'parent', 'trigger.source': 'email' }, value: 2 },
      { attributes: { 'trigger.name': 'child', 'trigger.source': 'email' }, value: 1 },
    ]);
    expect(points(resourceMetrics, 'trigger.failures')).toEqual([
      { attributes: { 'trigger.name': 'parent', 'trigger.source': 'email' }, value: 1 },
    ]);
    expect(points(resourceMetrics, 'trigger.retries')).toEqual([
      { attributes: { 'trigger.name': 'parent', 'trigger.source': 'email' }, value: 1 },
    ]);
    expect(points(resourceMetrics, 'trigger.duration')).toHaveLength(2);
  });
});
