/**
 * One entry for every runtime: runs a suite and returns the report.
 * @module
 */
import { runScenarios, runtimeVersion, type Artifacts, type RuntimeReport } from './scenario.js';
import { suites, type SuiteName } from './scenarios/index.js';
import type { D1DatabaseLike } from '../../core/src/storage/d1/binding.js';

/** What the host asks a runtime to do. */
export interface RunRequest {
  runtime: string;
  suite: SuiteName;
  peers?: Record<string, Artifacts>;
}

/**
 * Runs `request.suite` in this runtime.
 * @example
 * ```ts
 * const report = await runSuite({ runtime: 'node20', suite: 'main' });
 * ```
 */
export async function runSuite(request: RunRequest, d1?: D1DatabaseLike): Promise<RuntimeReport> {
  const artifacts: Artifacts = {};
  const results = await runScenarios(suites[request.suite], {
    runtime: request.runtime,
    peers: request.peers ?? {},
    artifacts,
    ...(d1 ? { d1 } : {}),
  });
  return { runtime: request.runtime, version: runtimeVersion(), results, artifacts };
}
