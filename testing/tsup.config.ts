import { packageBuild } from '../tsup.shared';

// ESM only: the helpers run inside vitest, which loads ESM. The optional peers are loaded on first use, from the
// app's own install (see README): never bundled. The conformance entry bundles the suites kept beside the code
// they check (core/src, triggers/src); they import the kit by its package names, which stay external.
export default packageBuild(
  {
    index: 'src/index.ts',
    conformance: 'src/conformance.ts',
    vitest: 'src/vitest.ts',
    webauthn: 'src/webauthn.ts',
    playwright: 'src/playwright.ts',
    node: 'src/node.ts',
  },
  {
    format: ['esm'],
    external: [
      'better-sqlite3',
      'kysely',
      'vitest',
      'vitest/config',
      'tough-cookie',
      '@playwright/test',
      'oidc-provider',
    ],
  },
);
