#!/usr/bin/env node
/**
 * Checks the packages as users get them, from the packed tarballs:
 *
 * 1. every package's tarball and manifest follow rules.mjs: the tarball ships the build only (no `src/`, no
 *    `*.test.*` file, no `__fixtures__`, no source maps), `files` lists only `dist` (plus `bin`, `assets`) and the
 *    docs, no runtime package lists `vitest` as a peer (only `@framework/testing` may: it publishes the suites), and
 *    `typesVersions` maps every subpath export to its declarations;
 * 2. `publint --strict` and `@arethetypeswrong/cli` for every package: profile `strict` for the packages that ship
 *    ESM and CommonJS, i.e. node16 from CJS and from ESM, bundler, and node10 (`moduleResolution: "node"`, which
 *    ignores `exports` and reads `types` / `typesVersions`), so a subpath TypeScript cannot find under node10 fails
 *    the check; profile `esm-only` for the ESM-only packages (`@framework/testing`, `@framework/sveltekit`): node10
 *    and `require` cannot load an ESM-only package, so those resolutions are expected to fail and are not checked;
 * 3. a scratch project installs the tarballs (no workspace links), typechecks every entry point's declarations
 *    without `skipLibCheck` and without the optional peers' types, puts a second copy of `@framework/auth` under
 *    `@framework/hono` (what npm does when versions disagree), and runs the smoke tests in `smoke/` with vitest:
 *    the storage, tenant-storage and engine conformance suites from `@framework/testing/conformance` against the
 *    installed runtime packages, the role conformance suite and the tenant cases through Hono's ESM build (nested
 *    copy) and CJS build, plus plain `require` / `import` of every entry point;
 * 4. `@framework/cli` installed beside `@framework/auth` alone (cli-alone.mjs): `npx framework auth generate` and
 *    `auth migrate` on a SQLite file work without `@framework/trigger`, and `framework triggers` names its install.
 *
 * Run after `npm run build`: `npm run check:packages`. Exits non-zero on the first failing step.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkCliAlone } from './cli-alone.mjs';
import { attwProfile, manifestProblems, PUBLISHED, tarballProblems } from './rules.mjs';

const root = resolve(import.meta.dirname, '../..');
/** Workspace folder → whether the package ships only ESM. */
const PACKAGES = PUBLISHED;
const bin = (name) => join(root, 'node_modules/.bin', name);
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: 'inherit', env: { ...process.env } });

for (const dir of Object.keys(PACKAGES)) {
  if (!existsSync(join(root, dir, 'dist'))) {
    console.error(`${dir}/dist is missing: run \`npm run build\` first.`);
    process.exit(2);
  }
}

/**
 * The tsc errors located in the kit's files or the probe (third-party declarations have their own problems,
 * e.g. a dependency's types that lag its runtime, and are not ours to fix).
 */
function typeErrorsInOurFiles(app) {
  try {
    execFileSync(join(app, 'node_modules/.bin/tsc'), ['-p', 'tsconfig.json'], { cwd: app, encoding: 'utf8' });
    return [];
  } catch (error) {
    const output = String(error.stdout ?? '');
    const ours = output.split('\n').filter((line) => /^(node_modules\/@framework\/|types\.mts)/.test(line));
    if (!ours.length && !/error TS/.test(output)) throw error;
    return ours;
  }
}

const work = mkdtempSync(join(tmpdir(), 'framework-packages-'));
const packs = join(work, 'packs');
mkdirSync(packs);
const tarballs = {};
try {
  for (const [dir, esmOnly] of Object.entries(PACKAGES)) {
    const cwd = join(root, dir);
    const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
    const { name } = pkg;
    console.log(`\n== ${name}`);
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', packs], { cwd, encoding: 'utf8' });
    const [packed] = JSON.parse(out);
    tarballs[name] = join(packs, packed.filename);
    const problems = [
      ...manifestProblems(pkg),
      ...tarballProblems(
        name,
        packed.files.map((f) => f.path),
      ),
    ];
    if (problems.length) throw new Error(`${problems.length} packaging problem(s):\n${problems.join('\n')}`);
    console.log(`tarball: ${packed.files.length} files, ${packed.size} B packed, ${packed.unpackedSize} B unpacked`);
    run(bin('publint'), ['--strict', '--pack', 'false'], cwd);
    const profile = attwProfile(esmOnly);
    run(bin('attw'), [tarballs[name], '--quiet', '--profile', profile], cwd);
    console.log(`attw (${profile}): no problems`);
  }

  console.log('\n== @framework/cli with @framework/auth only');
  checkCliAlone(tarballs, work);

  console.log('\n== scratch project from the tarballs');
  const app = join(work, 'app');
  cpSync(join(import.meta.dirname, 'smoke'), app, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
  for (const [name, file] of Object.entries(tarballs)) manifest.dependencies[name] = `file:${file}`;
  writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2));
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--install-links'], app);

  // A second, separate @framework/auth under the Hono adapter, as npm nests one when the versions disagree.
  const nested = join(app, 'node_modules/@framework/hono/node_modules/@framework/auth');
  mkdirSync(nested, { recursive: true });
  cpSync(join(app, 'node_modules/@framework/auth'), nested, { recursive: true, dereference: true });
  console.log(`nested copy: ${readdirSync(nested).join(' ')}`);

  // Every entry's declarations typecheck (no skipLibCheck) without the optional peers' types installed.
  const { both, esmOnly } = JSON.parse(readFileSync(join(app, 'entries.json'), 'utf8'));
  const lines = [...both, ...esmOnly].map((entry, i) => `export * as e${i} from '${entry}';`);
  writeFileSync(join(app, 'types.mts'), `${lines.join('\n')}\n`);
  const ours = typeErrorsInOurFiles(app);
  if (ours.length) throw new Error(`declarations do not typecheck:\n${ours.join('\n')}`);
  console.log(`types: ${lines.length} entry points typecheck`);

  run('node', ['require-all.cjs'], app);
  run('node', ['import-all.mjs'], app);
  run(join(app, 'node_modules/.bin/vitest'), ['run', '--config', 'vitest.config.mjs'], app);
  console.log('\npackages: all checks passed');
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  // A packaging problem lists every offending file or field; other failures print their own output above.
  console.error(`\npackages: FAILED (${/packaging problem/.test(message) ? message : message.split('\n')[0]})`);
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
