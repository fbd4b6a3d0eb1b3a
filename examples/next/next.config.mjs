// Next.js 15 configuration of the example.
// - Workspace packages resolve to their TypeScript sources through the `@framework/source` export condition (as in
//   the repository's tests), so the example builds without building the packages first; webpack bundles them, and
//   `externalDir` lets SWC compile those sources outside this folder.
// - Native and heavy server packages stay plain Node requires.
// - `authInterrupts` turns on `forbidden()`: requireRole answers 403 with app/forbidden.tsx.
// - NEXT_OUT moves the build (default `build/`): the tests build into .test-build/<id>/.
import { relative, resolve } from 'node:path';

const dir = import.meta.dirname;

/**
 * The kit's page security headers (PAGE_SECURITY_HEADERS of @framework/auth, less Cache-Control, which Next.js sets
 * to no-store itself on dynamic pages) on every response. A config file cannot import the workspace's TypeScript
 * sources, so they are listed here; test/security-headers.test.ts holds them equal to the kit's.
 */
export const securityHeaders = [
  { key: 'Content-Security-Policy', value: "frame-ancestors 'none'" },
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'Referrer-Policy', value: 'same-origin' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
];

/** @type {import('next').NextConfig} */
const config = {
  distDir: relative(dir, resolve(dir, process.env.NEXT_OUT ?? 'build')),
  poweredByHeader: false,
  // Typechecked and linted by the repository's own tsc and eslint runs, not again inside `next build`.
  typescript: { ignoreBuildErrors: true },
  eslint: { ignoreDuringBuilds: true },
  experimental: { authInterrupts: true, externalDir: true },
  serverExternalPackages: [
    'better-sqlite3',
    '@node-rs/argon2',
    'hash-wasm',
    'kysely',
    'pg',
    'mysql2',
    'drizzle-orm',
    'bullmq',
    'redis',
    '@upstash/redis',
    '@upstash/ratelimit',
    'nodemailer',
    'smtp-server',
    'mailparser',
    'jiti',
    'croner',
    '@opentelemetry/api',
  ],
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
  webpack(webpackConfig) {
    webpackConfig.resolve.conditionNames = ['@framework/source', ...(webpackConfig.resolve.conditionNames ?? ['...'])];
    webpackConfig.resolve.extensionAlias = { '.js': ['.ts', '.tsx', '.js'], '.mjs': ['.mts', '.mjs'] };
    // Two imports by computed name, on purpose: the optional native password hasher (core/src/password/native.ts)
    // and a trigger's own module file (triggers/src/sandbox/module.ts), both loaded at run time by Node.
    webpackConfig.ignoreWarnings = [
      ...(webpackConfig.ignoreWarnings ?? []),
      {
        module: /core\/src\/password\/native\.ts$|triggers\/src\/sandbox\/module\.ts$/,
        message: /Critical dependency/,
      },
    ];
    return webpackConfig;
  },
};

export default config;
