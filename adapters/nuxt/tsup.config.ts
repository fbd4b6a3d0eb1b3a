import { packageBuild } from '../../tsup.shared';

// ESM only, like Nuxt, Nitro and h3's consumers; the composables entry is for Vue pages.
export default packageBuild(
  { index: 'src/index.ts', composables: 'src/composables.ts' },
  { format: ['esm'], external: ['@framework/auth-client', '@framework/auth-client/vue'] },
);
