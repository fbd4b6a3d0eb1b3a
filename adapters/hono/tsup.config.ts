import { packageBuild } from '../../tsup.shared';

// The dashboard subpath imports @framework/dashboard, an optional peer: never bundled.
export default packageBuild({ index: 'src/index.ts', dashboard: 'src/dashboard.ts' }, { external: ['@framework/dashboard'] });
