import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {"index":"src/index.ts","convention":"src/convention.ts","middleware":"src/middleware.ts","tenant":"src/tenant.ts","rate-limit":"src/rate-limit.ts","client":"src/client.ts"},
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
});
