/**
 * The suite every trigger engine must pass (the memory engine and `bullmqEngine` do), for third-party engines too.
 * Not an entry point of `@framework/trigger` (the runtime package ships no test code and no `vitest`): it is
 * published by `@framework/testing/conformance`, whose build bundles it from here.
 * @example
 * ```ts
 * import { runEngineConformance } from '@framework/testing/conformance';
 * runEngineConformance('my-engine', (options) => myEngine(options));
 * ```
 * @module
 * @internal
 */
export { concurrencyProbe, eventually, runEngineConformance, type EngineFactory } from './engine/conformance.js';
