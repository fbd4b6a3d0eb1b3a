/**
 * The edge fixture's runner config: `defineTestConfig({environment: 'edge'})`
 * plus this repository's source resolution. The kit's own sources stand
 * where an app's `node_modules` would, so they are trusted.
 */
// The config file loads before the `@framework/source` condition applies, so it imports the source file itself.
import type { ViteUserConfig } from 'vitest/config';
import { defineTestConfig } from '../../src/config/define-test-config.js';

const conditions = ['@framework/source', 'node', 'default'];
const base = defineTestConfig({
  environment: 'edge',
  include: ['**/*.edge-fixture.ts'],
  edge: { allowBuiltins: ['async_hooks'], trusted: ['/node_modules/', '/core/src/', '/triggers/src/', '/client/src/'] },
});

const config: ViteUserConfig = {
  ...base,
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@framework/source'] } },
};
export default config;
