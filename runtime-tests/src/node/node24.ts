/**
 * The suite under Node 24.
 * @module
 */
import type { RunRequest } from '../run.js';
import type { RuntimeReport } from '../scenario.js';
import { node24Binary, runTs } from './spawn.js';

const MARKER = '@@runtime-report ';

/**
 * Runs a suite under the Node 24 binary and parses its report.
 * @throws Error when the process fails or prints no report.
 * @example
 * ```ts
 * const report = await runUnderNode24({ runtime: 'node24', suite: 'main' });
 * ```
 */
export async function runUnderNode24(request: RunRequest): Promise<RuntimeReport> {
  const out = await runTs(await node24Binary(), 'runtime-tests/src/node/main.ts', [JSON.stringify(request)]);
  const line = out.split('\n').find((l) => l.startsWith(MARKER));
  if (!line) throw new Error(`Node 24 printed no report:\n${out.slice(-2000)}`);
  return JSON.parse(line.slice(MARKER.length)) as RuntimeReport;
}
