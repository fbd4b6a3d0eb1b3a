import { packageBuild } from '../../tsup.shared';

export default packageBuild(
  { index: 'src/index.ts', dashboard: 'src/dashboard.ts' },
  { external: ['@framework/dashboard'] },
);
