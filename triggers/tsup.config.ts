import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    verifiers: 'src/verifiers.ts',
    testing: 'src/testing.ts',
    cli: 'src/cli/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // Loaded on demand and owned by the app: a Redis client for URL connections, Kysely for change capture.
  external: ['redis', 'kysely'],
});
