/**
 * Session-read cost on Node 20 (this process) against Node 24 (spawned): the
 * median µs of `auth.getSession(request)` with jwt sessions and with database
 * sessions over memory storage, so the runtime's own cost is visible.
 * Importing this module prints nothing; running it prints the table.
 * @module
 */
import { pathToFileURL } from 'node:url';
import { sessionReadAll } from './src/bench/session-read.js';
import { node24Binary, runTs } from './src/node/spawn.js';

const MARKER = '@@bench ';

/**
 * Measures session reads in-process and under Node 24; keys are
 * `<runtime>.<strategy>` with the runtime's major version, e.g.
 * `{'node20.jwt': 2.1, 'node20.database': 3.4, 'node24.jwt': 1.8, 'node24.database': 3.0}`.
 * Takes about 10 s.
 *
 * @throws Error when the Node 24 run fails.
 * @example
 * ```ts
 * import { benchSessionRead } from './runtime-tests/bench-session.js';
 * console.table(await benchSessionRead());
 * ```
 */
export async function benchSessionRead(): Promise<Record<string, number>> {
  const here = `node${process.versions.node.split('.')[0]}`;
  const local = await sessionReadAll();
  const out = await runTs(await node24Binary(), 'runtime-tests/src/bench/main.ts');
  const line = out.split('\n').find((l) => l.startsWith(MARKER));
  if (!line) throw new Error(`Node 24 printed no bench result:\n${out.slice(-2000)}`);
  const remote = JSON.parse(line.slice(MARKER.length)) as Record<string, number>;
  const result: Record<string, number> = {};
  for (const [strategy, micros] of Object.entries(local)) result[`${here}.${strategy}`] = micros;
  for (const [strategy, micros] of Object.entries(remote)) result[`node24.${strategy}`] = micros;
  return result;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log('== auth.getSession(request), median µs per call (memory storage for database sessions)');
  console.table(await benchSessionRead());
}
