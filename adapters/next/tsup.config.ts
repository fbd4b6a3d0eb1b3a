import { packageBuild } from '../../tsup.shared';

// ESM only, like Next.js's App Router. The middleware entry is bundled for the Edge runtime: it must reach
// neither @framework/auth nor any node: module (src/middleware/edge-imports.test.ts).
export default packageBuild(
  { index: 'src/index.ts', middleware: 'src/middleware/index.ts' },
  { format: ['esm'], external: ['next', 'react', '@framework/auth'] },
);
