/**
 * `framework auth migrate --config <module>` and `framework auth generate --dialect <sqlite|postgres|mysql>`: the auth
 * storage schema for apps that migrate outside start-up. `@framework/auth` is loaded when these run; without it
 * they answer one line naming the install command.
 * @module
 * @internal
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError, type CliIO, type ParsedArgs } from './io.js';
import { built, loadModule } from './config-module.js';

type AuthModule = typeof import('@framework/auth');
interface Migratable {
  migrate(): Promise<void>;
  adapter?: { close?(): Promise<void> } | undefined;
}

async function authPackage(): Promise<AuthModule> {
  try {
    return await import('@framework/auth');
  } catch {
    throw new UsageError('`framework auth` needs @framework/auth: npm install @framework/auth');
  }
}

const flag = (args: ParsedArgs, name: string) => {
  const value = args.flags.get(name);
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

/** The dialects `generateMigrationSql` renders. */
const DIALECTS = ['sqlite', 'postgres', 'mysql'] as const;
type Dialect = (typeof DIALECTS)[number];

/** `framework auth generate --dialect <sqlite|postgres|mysql> [--prefix auth_] [--out <file>]`. */
export async function generateCommand(io: CliIO, args: ParsedArgs): Promise<number> {
  const dialect = flag(args, 'dialect');
  if (!DIALECTS.includes(dialect as Dialect)) throw new UsageError(`--dialect must be ${DIALECTS.join(', ')}`);
  const { generateMigrationSql } = await authPackage();
  const prefix = flag(args, 'prefix');
  let text: string;
  try {
    text = await generateMigrationSql({ dialect: dialect as Dialect, ...(prefix ? { tablePrefix: prefix } : {}) });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const out = flag(args, 'out');
  if (!out) {
    io.stdout.write(text);
    return 0;
  }
  const file = resolve(io.cwd, out);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  io.stdout.write(`wrote ${file}\n`);
  return 0;
}

/**
 * `framework auth migrate --config <module>`: the module's named `auth` export, else its default export, is the
 * app's `createAuth(...)` result (or a function, possibly async, returning it); runs `auth.migrate()` (the
 * adapter's migrations, then every plugin's) and closes the adapter. `.js`/`.mjs`/`.cjs` modules are loaded with
 * `import()`; TypeScript ones with jiti.
 * @returns 0 once migrated.
 * @throws {UsageError} (exit 2) without `--config` or for a missing file; Error (exit 1) when the module fails to
 *   load, exports neither `auth` nor a default with `migrate()`, or a migration fails.
 */
export async function migrateCommand(io: CliIO, args: ParsedArgs): Promise<number> {
  const config = flag(args, 'config');
  if (!config) throw new UsageError('--config <module> is required: a module exporting your auth (`auth` or default)');
  const exports = await loadModule('--config', config, io.cwd);
  const auth = (await built(exports.auth ?? exports.default)) as Migratable | undefined;
  if (!auth || typeof auth.migrate !== 'function') {
    throw new Error(
      `--config module ${config} exports no auth: export it as \`export const auth = createAuth(...)\` or \`export default\` (the auth, or a function returning it)`,
    );
  }
  try {
    await auth.migrate();
  } finally {
    await auth.adapter?.close?.();
  }
  io.stdout.write('migrated\n');
  return 0;
}
