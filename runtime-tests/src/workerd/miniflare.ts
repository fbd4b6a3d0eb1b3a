/**
 * Runs the suite Worker in Miniflare (workerd) with a D1 database bound as `DB`.
 * @module
 */
import { Miniflare } from 'miniflare';
import { fileURLToPath } from 'node:url';
import type { D1DatabaseLike } from '../../../core/src/storage/d1/binding.js';
import type { RunRequest } from '../run.js';
import type { RuntimeReport } from '../scenario.js';
import { bundleWorker, WORKERD_COMPAT } from './bundle.js';

const ENTRY = fileURLToPath(new URL('./entry.ts', import.meta.url));

/** A started suite Worker. */
export interface WorkerdSuite {
  run(request: RunRequest): Promise<RuntimeReport>;
  /** The Worker's D1 database, usable from Node (each statement runs in workerd). */
  d1(): Promise<D1DatabaseLike>;
  dispose(): Promise<void>;
}

/**
 * Bundles the suite Worker and starts it.
 * @example
 * ```ts
 * const workerd = await startWorkerdSuite();
 * const report = await workerd.run({ runtime: 'workerd', suite: 'main' });
 * await workerd.dispose();
 * ```
 */
export async function startWorkerdSuite(): Promise<WorkerdSuite> {
  const modules = await bundleWorker(ENTRY);
  const mf = new Miniflare({ modules, ...WORKERD_COMPAT, d1Databases: ['DB'] });
  await mf.ready;
  return {
    async run(request) {
      const res = await mf.dispatchFetch('http://suite.test/run', { method: 'POST', body: JSON.stringify(request) });
      const text = await res.text();
      if (!res.ok) throw new Error(`workerd answered ${res.status}: ${text.slice(0, 2000)}`);
      return JSON.parse(text) as RuntimeReport;
    },
    d1: async () => (await mf.getD1Database('DB')) as unknown as D1DatabaseLike,
    dispose: () => mf.dispose(),
  };
}
