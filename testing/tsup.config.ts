import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {"index":"src/index.ts"},
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // Loaded on first use, from the app's own install (see README): never bundled.
  external: ['better-sqlite3', 'kysely', 'vitest', 'vitest/config'],
});
