// Nuxt 3 with Nitro's node-server preset. Nuxt's build folder and Nitro's output both live in build/ (the folder
// start.mjs's build-if-stale check skips as an output). NUXT_OUT moves them elsewhere (the
// tests build into .test-build/<id>/ so that builds running side by side never share a folder). Workspace packages
// resolve to their TypeScript sources through the `@framework/source` export condition, in Vite (pages) and in
// Nitro (server routes), so the example builds without building the packages first.
const out = process.env.NUXT_OUT;
const source = '@framework/source';

export default defineNuxtConfig({
  compatibilityDate: '2025-07-01',
  devtools: { enabled: false },
  telemetry: false,
  buildDir: out ? `${out}/nuxt` : 'build/nuxt',
  vite: { resolve: { conditions: [source, 'module', 'browser', 'development|production'] } },
  nitro: {
    preset: 'node-server',
    output: { dir: out ? `${out}/output` : 'build/output' },
    exportConditions: [source],
    // The kit's packages are TypeScript sources here: bundle them (better-sqlite3 and the rest stay external).
    externals: { inline: [/@framework\//, /examples\/shared\//, /examples\/hono\//] },
    esbuild: { options: { target: 'es2022' } },
  },
  app: { head: { title: 'framework-kit on Nuxt' } },
});
