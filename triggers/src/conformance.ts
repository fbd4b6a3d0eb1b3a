/**
 * `@framework/trigger/conformance`: the suite every trigger engine must pass
 * (the memory engine and `bullmqEngine` do), for third-party engines too. It
 * declares vitest tests; `vitest` is an optional peer dependency used only
 * here. Usually reached through `@framework/testing/conformance`.
 * @example
 * ```ts
 * import { runEngineConformance } from '@framework/testing/conformance';
 * runEngineConformance('my-engine', (options) => myEngine(options));
 * ```
 * @module
 */
export { concurrencyProbe, eventually, runEngineConformance, type EngineFactory } from './engine/conformance.js';
