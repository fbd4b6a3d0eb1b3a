import { packageBuild } from '../../tsup.shared';

// ESM only: @sveltejs/kit itself ships no CommonJS entry.
export default packageBuild(
  { index: 'src/index.ts', dashboard: 'src/dashboard.ts' },
  { format: ['esm'], external: ['@framework/dashboard'] },
);
