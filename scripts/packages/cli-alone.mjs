/**
 * `@framework/cli` as an app that only migrates its auth storage installs it: a scratch project with the packed
 * `@framework/cli` and `@framework/auth` tarballs and nothing else of the kit (`@framework/auth`'s own
 * `@framework/auth-client` dependency comes from its tarball too; their third-party dependencies from the npm
 * cache or registry). It runs, as a user would:
 *
 * - `npx framework auth generate --dialect postgres`: the adapter's tables and every plugin's;
 * - `npx framework auth migrate --config auth.config.mjs`: a plain JavaScript config with a named `auth` export on
 *   a SQLite file, then reads the file back;
 * - `npx @framework/cli --version`, the documented way to run it;
 * - `npx framework triggers list`: without `@framework/trigger` it must exit 2 naming `npm install @framework/trigger`.
 *
 * better-sqlite3 (native, an optional peer the app installs) is linked from the workspace's built copy instead of
 * being compiled again, which keeps the check fast.
 *
 * Called by check.mjs with the tarballs it packed; `node scripts/packages/cli-alone.mjs` (after `npm run build`)
 * packs the three packages itself.
 * @module
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '../..');

/** The config the check migrates with: the core README's shape, `export const auth = createAuth(...)`. */
const CONFIG = `import { createAuth, createSqliteAdapter } from '@framework/auth';

export const auth = createAuth({
  adapter: createSqliteAdapter({ filename: 'auth.db' }),
  providers: [],
});
`;

/** Runs `npx ...args` in `cwd`; returns its exit code and output (never throws on a non-zero exit). */
function npx(cwd, ...args) {
  const result = spawnSync('npx', ['--no-install', ...args], { cwd, encoding: 'utf8', env: { ...process.env } });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function expect(condition, what, result) {
  if (condition) return;
  const output = result ? `\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}` : '';
  throw new Error(`cli alone: ${what}${output}`);
}

/**
 * @param {Record<string, string>} tarballs Package name → packed `.tgz` path; needs `@framework/cli`,
 *   `@framework/auth` and `@framework/auth-client`.
 * @param {string} work A scratch folder (the project is made inside it).
 */
export function checkCliAlone(tarballs, work) {
  const app = join(work, 'cli-alone');
  mkdirSync(app);
  const own = (name) => `file:${tarballs[name]}`;
  const manifest = {
    name: 'framework-cli-alone',
    private: true,
    type: 'module',
    dependencies: { '@framework/cli': own('@framework/cli'), '@framework/auth': own('@framework/auth') },
    overrides: { '@framework/auth-client': own('@framework/auth-client') },
  };
  writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2));
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline', '--install-links'],
    { cwd: app, stdio: 'inherit' },
  );
  symlinkSync(join(root, 'node_modules/better-sqlite3'), join(app, 'node_modules/better-sqlite3'), 'dir');
  writeFileSync(join(app, 'auth.config.mjs'), CONFIG);

  const generated = npx(app, 'framework', 'auth', 'generate', '--dialect', 'postgres');
  expect(generated.code === 0, `auth generate exited ${generated.code}`, generated);
  for (const table of [
    '"auth_users"',
    '"two_factor"',
    '"admin_bans"',
    '"org_invitations"',
    '"api_keys"',
    '"auth_jwks"',
  ])
    expect(generated.stdout.includes(`create table ${table}`), `auth generate prints no ${table}`, generated);

  const migrated = npx(app, 'framework', 'auth', 'migrate', '--config', 'auth.config.mjs');
  expect(migrated.code === 0 && migrated.stdout === 'migrated\n', 'auth migrate did not migrate', migrated);
  const check = `import Database from 'better-sqlite3';
const db = new Database('auth.db', { fileMustExist: true });
console.log(db.prepare('select count(*) as n from auth_migrations').get().n);`;
  const applied = Number(execFileSync('node', ['--input-type=module', '-e', check], { cwd: app, encoding: 'utf8' }));
  expect(applied > 0, `auth.db records ${applied} migrations`);

  const version = npx(app, '@framework/cli', '--version');
  expect(/^@framework\/cli \d+\.\d+\.\d+/.test(version.stdout), 'npx @framework/cli --version', version);

  const triggers = npx(app, 'framework', 'triggers', 'list');
  expect(
    triggers.code === 2 && triggers.stderr.includes('npm install @framework/trigger'),
    'framework triggers without @framework/trigger must exit 2 naming the install command',
    triggers,
  );
  console.log(
    `cli alone: auth generate (${generated.stdout.split('\n').length} lines), auth migrate (${applied} migrations), --version, triggers without @framework/trigger: ok`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const work = mkdtempSync(join(tmpdir(), 'framework-cli-alone-'));
  try {
    const tarballs = {};
    for (const [dir, name] of [
      ['cli', '@framework/cli'],
      ['core', '@framework/auth'],
      ['client', '@framework/auth-client'],
    ]) {
      const out = execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
        cwd: join(root, dir),
        encoding: 'utf8',
      });
      tarballs[name] = join(work, JSON.parse(out)[0].filename);
    }
    checkCliAlone(tarballs, work);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
