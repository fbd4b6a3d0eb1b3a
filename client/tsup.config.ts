import { packageBuild } from '../tsup.shared';

/**
 * The main entry has no framework in it; each binding is its own subpath
 * entry that imports the main one by the package's name (kept external, so
 * the page holds one copy of the client).
 */
export default packageBuild(
  {
    index: 'src/index.ts',
    react: 'src/react.ts',
    preact: 'src/preact.ts',
    vue: 'src/vue.ts',
    svelte: 'src/svelte.ts',
    solid: 'src/solid.ts',
    'plugins/email-otp': 'src/plugins/email-otp.ts',
    'plugins/one-tap': 'src/plugins/one-tap.ts',
    'plugins/oidc-provider': 'src/plugins/oidc-provider.ts',
    'plugins/sso': 'src/plugins/sso.ts',
    'plugins/username': 'src/plugins/username.ts',
    'plugins/multi-session': 'src/plugins/multi-session.ts',
    'plugins/phone-number': 'src/plugins/phone-number.ts',
    'plugins/last-login-method': 'src/plugins/last-login-method.ts',
    'plugins/anonymous': 'src/plugins/anonymous.ts',
    'plugins/bearer': 'src/plugins/bearer.ts',
    'plugins/two-factor': 'src/plugins/two-factor.ts',
    'plugins/admin': 'src/plugins/admin.ts',
    'plugins/organizations': 'src/plugins/organizations.ts',
  },
  { external: ['@framework/auth-client'] },
);
