/**
 * The parts of `@opentelemetry/api` the core uses, loaded by `telemetry.ts` through `import()` when `createAuth` is
 * called. Named re-exports rather than an `import()` of the package itself, so a bundler keeps only these.
 * @module
 * @internal
 */
export { context, metrics, trace, ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags } from '@opentelemetry/api';
