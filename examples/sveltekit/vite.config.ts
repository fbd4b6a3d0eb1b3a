import { sveltekit } from '@sveltejs/kit/vite';
import { defaultClientConditions, defaultServerConditions, defineConfig } from 'vite';

// Workspace packages resolve to their TypeScript sources through the
// `@framework/source` export condition (as in the repository's tests), so the example
// builds without building the packages first; Vite bundles them.
export default defineConfig({
  plugins: [sveltekit()],
  resolve: { conditions: ['@framework/source', ...defaultClientConditions] },
  ssr: {
    resolve: {
      conditions: ['@framework/source', ...defaultServerConditions],
      externalConditions: ['@framework/source'],
    },
  },
  logLevel: process.env.KIT_OUT ? 'warn' : 'info',
});
