/**
 * The scenario model shared by every runtime: plain async functions that
 * throw on failure, run by {@link runScenarios} into JSON-safe results. No
 * test framework runs inside a scenario, so the same code runs in Node and in
 * a Worker.
 * @module
 */
import type { D1DatabaseLike } from '../../core/src/storage/d1/binding.js';

/** What one runtime leaves for the others to check (same password, same secret). */
export interface Artifacts {
  /** A PHC string of {@link PORTABLE_PASSWORD} made by this runtime. */
  passwordHash?: string;
  /** A jwt session cookie value signed with {@link PORTABLE_SECRET}. */
  jwtCookie?: string;
}

/** What a runtime hands to its scenarios. */
export interface ScenarioContext {
  /** `node20`, `node24`, `workerd`. */
  runtime: string;
  /** A D1 binding, where the runtime has one. */
  d1?: D1DatabaseLike;
  /** Artifacts of the other runtimes, by runtime name (cross-runtime scenarios only). */
  peers: Record<string, Artifacts>;
  /** Artifacts this run produces. */
  artifacts: Artifacts;
}

/** One named check. */
export interface Scenario {
  name: string;
  run(ctx: ScenarioContext): Promise<void>;
}

/** How a scenario ended. `unsupported` carries the reason it cannot run in this runtime. */
export interface ScenarioResult {
  name: string;
  status: 'pass' | 'fail' | 'unsupported';
  message?: string;
  ms: number;
}

/** A runtime's whole answer. */
export interface RuntimeReport {
  runtime: string;
  /** `process.version`, or `navigator.userAgent` in workerd. */
  version: string;
  results: ScenarioResult[];
  artifacts: Artifacts;
}

/** The password every runtime hashes, so hashes can be checked across runtimes. */
export const PORTABLE_PASSWORD = 'portable password ✓ 1234';
/** The auth secret every runtime signs with. */
export const PORTABLE_SECRET = 'runtime-tests-secret-runtime-tests-secret-42';

/** Thrown by a scenario that cannot run in this runtime; the reason is reported, never hidden. */
export class Unsupported extends Error {
  override name = 'Unsupported';
}

/**
 * Throws with `message` unless `condition` holds.
 * @example
 * ```ts
 * check(res.status === 200, `sign-in answered ${res.status}`);
 * ```
 */
export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

/**
 * Throws unless `actual` and `expected` have the same JSON form.
 * @example
 * ```ts
 * same(await limiter.check(req).then((r) => r.success), true, 'first attempt');
 * ```
 */
export function same(actual: unknown, expected: unknown, label: string): void {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`${label}: expected ${e}, got ${a}`);
}

/**
 * Runs scenarios one after another and reports each; never throws.
 * @example
 * ```ts
 * const results = await runScenarios(mainScenarios, { runtime: 'node20', peers: {}, artifacts: {} });
 * ```
 */
export async function runScenarios(scenarios: readonly Scenario[], ctx: ScenarioContext): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const started = performance.now();
    try {
      await scenario.run(ctx);
      results.push({ name: scenario.name, status: 'pass', ms: Math.round(performance.now() - started) });
    } catch (error) {
      const status = error instanceof Unsupported ? 'unsupported' : 'fail';
      const message =
        error instanceof Error
          ? `${error.message}${error.cause instanceof Error ? ` (cause: ${error.cause.message})` : ''}`
          : String(error);
      results.push({ name: scenario.name, status, message, ms: Math.round(performance.now() - started) });
    }
  }
  return results;
}

/** This runtime's version string. */
export function runtimeVersion(): string {
  const proc = (globalThis as { process?: { version?: string } }).process;
  const agent = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent;
  return agent === 'Cloudflare-Workers' ? agent : (proc?.version ?? agent ?? 'unknown');
}
