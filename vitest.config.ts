import { defineConfig } from 'vitest/config';

/**
 * One vitest project per package. Workspace packages resolve to their
 * TypeScript sources through the `@framework/source` export condition, so tests never
 * need a build first.
 */
const conditions = ['@framework/source', 'node', 'default'];
const project = (name: string, dir: string, extra: Record<string, unknown> = {}) => ({
  extends: true as const,
  test: { name, include: [`${dir}/**/*.test.ts`], ...extra },
});

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@framework/source'] } },
  test: {
    reporters: ['default', './scripts/summary-reporter.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    projects: [
      project('core', 'core'),
      project('client', 'client'),
      project('triggers', 'triggers'),
      project('cli', 'cli'),
      project('testing', 'testing'),
      project('dashboard', 'dashboard'),
      project('hono', 'adapters/hono'),
      project('express', 'adapters/express'),
      project('sveltekit', 'adapters/sveltekit'),
      project('remix', 'adapters/remix'),
      project('fastify', 'adapters/fastify'),
      project('next', 'adapters/next'),
      project('nuxt', 'adapters/nuxt'),
      project('astro', 'adapters/astro'),
      project('example-shared', 'examples/shared'),
      project('example-hono', 'examples/hono'),
      project('example-express', 'examples/express'),
      project('example-sveltekit', 'examples/sveltekit'),
      project('example-remix', 'examples/remix'),
      project('example-fastify', 'examples/fastify'),
      project('example-next', 'examples/next'),
      project('example-nuxt', 'examples/nuxt'),
      project('example-astro', 'examples/astro'),
      project('example-workers', 'examples/workers'),
      project('runtime', 'runtime-tests', { globalSetup: ['runtime-tests/global-setup.ts'] }),
      project('docs', 'scripts'),
    ],
  },
});
