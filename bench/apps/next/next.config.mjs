// The Next.js bench app: build under build/, workspace packages from their TypeScript sources (`@framework/source`,
// compiled by SWC through `externalDir`), the server packages the kit may load kept as Node requires (as in
// examples/next/next.config.mjs). Typechecked and linted by the repository's own runs.

/** @type {import('next').NextConfig} */
const config = {
  distDir: 'build',
  poweredByHeader: false,
  typescript: { ignoreBuildErrors: true },
  eslint: { ignoreDuringBuilds: true },
  experimental: { externalDir: true },
  serverExternalPackages: ['better-sqlite3', '@node-rs/argon2', 'hash-wasm', 'kysely', 'pg', 'mysql2', 'redis'],
  webpack(webpackConfig) {
    webpackConfig.resolve.conditionNames = ['@framework/source', ...(webpackConfig.resolve.conditionNames ?? ['...'])];
    webpackConfig.resolve.extensionAlias = { '.js': ['.ts', '.tsx', '.js'], '.mjs': ['.mts', '.mjs'] };
    webpackConfig.ignoreWarnings = [
      ...(webpackConfig.ignoreWarnings ?? []),
      { module: /core\/src\/password\/native\.ts$/, message: /Critical dependency/ },
    ];
    return webpackConfig;
  },
};

export default config;
