// Astro 5, server output on @astrojs/node (standalone: its own HTTP server, PORT and HOST from the environment).
// ASTRO_OUT moves the build elsewhere (the tests build into .test-build/<id>/ so that builds running side by side
// never share a folder). Workspace packages resolve to their TypeScript sources through the `@framework/source`
// export condition, so the example builds without building the packages first; Vite bundles them.
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

const out = process.env.ASTRO_OUT;
const source = '@framework/source';

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone' }),
  outDir: out ? `${out}/dist` : 'build',
  cacheDir: out ? `${out}/cache` : 'node_modules/.astro',
  // Without allowedDomains Astro ignores the Host header and every request URL is http://localhost, so the kit's
  // CSRF origin check (and Astro's own checkOrigin) would refuse every POST. Add the public hostname in production.
  security: {
    allowedDomains: [
      { hostname: 'localhost' },
      { hostname: '127.0.0.1' },
      ...(process.env.APP_HOSTNAME ? [{ hostname: process.env.APP_HOSTNAME, protocol: 'https' }] : []),
    ],
  },
  telemetry: false,
  devToolbar: { enabled: false },
  vite: {
    resolve: { conditions: [source, 'module', 'browser', 'development|production'] },
    ssr: {
      resolve: { conditions: [source, 'module', 'node', 'development|production'], externalConditions: [source] },
    },
    logLevel: out ? 'warn' : 'info',
  },
});
