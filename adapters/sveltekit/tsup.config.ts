import { defineConfig } from 'tsup';

// ESM only: @sveltejs/kit itself ships no CommonJS entry.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
