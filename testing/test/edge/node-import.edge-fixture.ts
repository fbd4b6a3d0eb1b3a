/** Must fail under the edge config: it imports app code that imports node:fs. */
import { expect, it } from 'vitest';
import { readConfig } from './reads-file.js';

it('never runs', () => {
  expect(typeof readConfig).toBe('function');
});
