// The Nuxt bench app: Nitro's node-server preset, server routes only (no pages), everything under build/. The kit's
// packages are TypeScript sources here (`@framework/source`), bundled by Nitro, as in examples/nuxt.
import { defineNuxtConfig } from 'nuxt/config';

const source = '@framework/source';

export default defineNuxtConfig({
  compatibilityDate: '2025-07-01',
  devtools: { enabled: false },
  telemetry: false,
  pages: false,
  buildDir: 'build/nuxt',
  nitro: {
    preset: 'node-server',
    output: { dir: 'build/output' },
    exportConditions: [source],
    externals: { inline: [/@framework\//, /bench\/apps\//] },
    esbuild: { options: { target: 'es2022' } },
  },
});
