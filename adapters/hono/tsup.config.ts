import { packageBuild } from '../../tsup.shared';

// The dashboard and bull-board subpaths import optional peers: never bundled.
export default packageBuild(
  { index: 'src/index.ts', dashboard: 'src/dashboard.ts', 'bull-board': 'src/bull-board.ts' },
  { external: ['@framework/dashboard', '@bull-board/api', '@bull-board/hono', '@hono/node-server', 'bullmq'] },
);
