import { packageBuild } from '../tsup.shared';

// @framework/auth, @framework/trigger and jiti are optional peers, imported when a command needs them.
export default packageBuild({ index: 'src/index.ts' });
