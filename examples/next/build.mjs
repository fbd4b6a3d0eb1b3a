// `npm run build` (and the first step of `npm start` and of the tests): `next build` into build/ (NEXT_OUT) only when
// that build is missing or older than its sources (this example's files and the `src/` of the kit packages it
// bundles), through the shared build-if-stale helper, with Next.js's telemetry off. Run as a script, it builds.
import { pathToFileURL } from 'node:url';
import { buildIfStale } from '@framework/example-shared/build-if-stale';

/** Builds the example unless its build is current; resolves whether it built. */
export function buildNextExample() {
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  return buildIfStale({
    dir: import.meta.dirname,
    output: process.env.NEXT_OUT ?? 'build',
    command: 'next',
    args: ['build'],
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildNextExample();
