import { packageBuild } from '../../tsup.shared';

// ESM only, like Astro.
export default packageBuild({ index: 'src/index.ts' }, { format: ['esm'] });
