import { packageBuild } from '../tsup.shared';

// uPlot and the page script are read from the package's files at run time, never bundled.
export default packageBuild({ index: 'src/index.ts' }, { external: ['uplot'] });
