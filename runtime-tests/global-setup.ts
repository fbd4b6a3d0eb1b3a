/**
 * Vitest global setup of the `runtime` project: makes sure the Node 24
 * binary is there before the suites that spawn it start, so `npm test` on a
 * fresh clone needs no other step.
 */
import { ensureNode24 } from './src/node/install-node24.js';

export default async function setup(): Promise<void> {
  await ensureNode24();
}
