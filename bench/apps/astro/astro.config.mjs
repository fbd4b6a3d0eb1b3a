// The Astro bench app: server output on @astrojs/node (middleware mode: server.mjs serves its handler), build under
// build/. Workspace packages resolve to their TypeScript sources (`@framework/source`), as in examples/astro.
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

const source = '@framework/source';

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  outDir: 'build',
  cacheDir: 'build/cache',
  security: { allowedDomains: [{ hostname: '127.0.0.1' }] },
  telemetry: false,
  devToolbar: { enabled: false },
  vite: {
    resolve: { conditions: [source, 'module', 'browser', 'development|production'] },
    ssr: {
      resolve: { conditions: [source, 'module', 'node', 'development|production'], externalConditions: [source] },
    },
    logLevel: 'warn',
  },
});
