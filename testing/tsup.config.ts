import { packageBuild } from '../tsup.shared';

// Loaded on first use, from the app's own install (see README): never bundled.
export default packageBuild(
  { index: 'src/index.ts', conformance: 'src/conformance.ts' },
  { external: ['better-sqlite3', 'kysely', 'vitest', 'vitest/config', 'tough-cookie'] },
);
