// The Hono adapter as two different consumers load it, each with a copy of @framework/auth that is not the app's:
// the ESM build (which resolves the nested copy under node_modules/@framework/hono) and the CJS build.
import { createRequire } from 'node:module';
import * as esm from '@framework/hono';

const require = createRequire(import.meta.url);

export const HONO_BUILDS = { 'ESM, nested @framework/auth': esm, CJS: require('@framework/hono') };

/** Where a package resolves `@framework/auth` from, for the given consumer kind. */
export function authPathSeenBy(kind) {
  const honoDir = require.resolve('@framework/hono').replace(/dist\/index\.cjs$/, '');
  return kind === 'app' ? require.resolve('@framework/auth') : require.resolve('@framework/auth', { paths: [honoDir] });
}
