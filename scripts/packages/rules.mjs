/**
 * What a published package may carry and declare, as pure checks over a manifest and a tarball's file list. Used by
 * check.mjs on the packed tarballs and by rules.test.ts on the workspace manifests.
 *
 * - A tarball ships its build: no sources (`src/`), no tests (`*.test.*`, `*.test-d.*`), no fixtures
 *   (`__fixtures__`), no source maps (they would point at sources that are not shipped).
 * - `files` lists only what is built or served (`dist`, `bin`, `assets`) and the README / CHANGELOG / LICENSE.
 * - Only `@framework/testing` may name `vitest` as a peer: the runtime packages ship no test code.
 * - Every subpath export has a `typesVersions` entry naming the types its `exports` give ESM importers, so TypeScript
 *   with `moduleResolution: "node"` (node10), which ignores `exports`, finds the same declarations.
 * @module
 */

/** The published packages: workspace folder → whether the package ships only ESM. */
export const PUBLISHED = {
  core: false,
  client: false,
  triggers: false,
  cli: false,
  testing: true,
  dashboard: false,
  'adapters/hono': false,
  'adapters/express': false,
  'adapters/fastify': false,
  'adapters/remix': false,
  'adapters/sveltekit': true,
  'adapters/next': true,
  'adapters/nuxt': true,
  'adapters/astro': true,
};

/** The packages that may list `vitest` among their peer dependencies (they publish vitest suites). */
export const VITEST_PEER_ALLOWED = new Set(['@framework/testing']);

/** What a `files` entry may be: built output, served assets, the CLI launcher and the docs (the changelog too). */
const ALLOWED_FILES = new Set(['dist', 'bin', 'assets', 'README.md', 'CHANGELOG.md', 'LICENSE', 'LICENSE.md']);

/** Paths inside a tarball that are never shipped, each with the reason reported. */
const FORBIDDEN_PATHS = [
  [/(^|\/)src\//, 'a source folder (src/)'],
  [/\.test(-d)?\.[cm]?[jt]sx?$/, 'a test file'],
  [/(^|\/)__fixtures__\//, 'test fixtures (__fixtures__)'],
  [/\.map$/, 'a source map'],
];

/**
 * The problems of one tarball's contents.
 * @param {string} name The package name, for the messages.
 * @param {readonly string[]} paths The paths inside the tarball, relative to `package/` (as `npm pack --json` lists).
 * @returns {string[]} One message per forbidden path; empty when the tarball is clean.
 */
export function tarballProblems(name, paths) {
  const problems = [];
  for (const path of paths) {
    const hit = FORBIDDEN_PATHS.find(([pattern]) => pattern.test(path.replace(/\\/g, '/')));
    if (hit) problems.push(`${name}: the tarball contains ${hit[1]}: ${path}`);
  }
  return problems;
}

/**
 * The problems of a package manifest: `files`, a `vitest` peer, `typesVersions`.
 * @param {{ name: string, files?: string[], exports?: Record<string, unknown>, typesVersions?: Record<string, Record<string, string[]>>, peerDependencies?: Record<string, string> }} manifest
 * @returns {string[]} One message per problem; empty when the manifest is fine.
 */
export function manifestProblems(manifest) {
  const { name } = manifest;
  const problems = [];
  if (!Array.isArray(manifest.files)) problems.push(`${name}: no "files" list (npm would pack everything)`);
  for (const entry of manifest.files ?? []) {
    if (!ALLOWED_FILES.has(entry)) problems.push(`${name}: "files" lists ${JSON.stringify(entry)}; ship dist only`);
  }
  if (manifest.peerDependencies?.vitest !== undefined && !VITEST_PEER_ALLOWED.has(name)) {
    problems.push(`${name}: a runtime package lists vitest as a peer dependency`);
  }
  problems.push(...typesVersionsProblems(manifest));
  return problems;
}

/** The declarations an `exports` entry gives ESM importers (`import.types`, else `types`). */
function esmTypesOf(target) {
  if (typeof target !== 'object' || target === null) return undefined;
  return target.import?.types ?? target.types;
}

/**
 * The subpath exports that `typesVersions` misses or maps elsewhere than `exports` does.
 * @param {{ name: string, exports?: Record<string, unknown>, typesVersions?: Record<string, Record<string, string[]>> }} manifest
 * @returns {string[]}
 */
export function typesVersionsProblems(manifest) {
  const { name } = manifest;
  const map = manifest.typesVersions?.['*'] ?? {};
  const problems = [];
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (subpath === '.' || subpath === './package.json') continue;
    const types = esmTypesOf(target);
    const key = subpath.slice(2);
    if (!types) problems.push(`${name}: export ${subpath} has no types`);
    else if (JSON.stringify(map[key]) !== JSON.stringify([types])) {
      problems.push(`${name}: typesVersions must map ${JSON.stringify(key)} to [${JSON.stringify(types)}] (node10)`);
    }
  }
  for (const key of Object.keys(map)) {
    if (!(`./${key}` in (manifest.exports ?? {}))) problems.push(`${name}: typesVersions maps ${key}, not an export`);
  }
  return problems;
}

/**
 * The attw profile of a package: `strict` (node10, node16 from CJS and ESM, bundler) for dual ESM + CJS packages;
 * `esm-only` for ESM-only ones, which node10 and CommonJS `require` cannot load by design.
 * @param {boolean} esmOnly
 * @returns {'strict' | 'esm-only'}
 */
export const attwProfile = (esmOnly) => (esmOnly ? 'esm-only' : 'strict');
