import { reactRouter } from '@react-router/dev/vite';
import { defaultClientConditions, defaultServerConditions, defineConfig } from 'vite';

// Workspace packages resolve to their TypeScript sources (`@framework/source`), as in the examples.
export default defineConfig({
  plugins: [reactRouter()],
  resolve: { conditions: ['@framework/source', ...defaultClientConditions] },
  ssr: {
    resolve: {
      conditions: ['@framework/source', ...defaultServerConditions],
      externalConditions: ['@framework/source'],
    },
  },
  logLevel: 'warn',
});
