import { packageBuild } from '../tsup.shared';

// Loaded on demand and owned by the app: a Redis client for URL connections, Kysely for change capture.
export default packageBuild(
  {
    index: 'src/index.ts',
    verifiers: 'src/verifiers.ts',
    testing: 'src/testing.ts',
    cli: 'src/cli/index.ts',
  },
  { external: ['redis', 'kysely'] },
);
