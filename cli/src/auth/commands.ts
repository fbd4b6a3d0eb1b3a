/**
 * `framework auth migrate --config <module>` and `framework auth generate --dialect <sqlite|postgres|mysql>`: the auth
 * storage schema (the adapter's tables and the plugins', or the Drizzle schema file with `--drizzle`) for apps that
 * migrate outside start-up. `@framework/auth`
 * is loaded when these run; without it they answer one line naming the install command.
 * @module
 * @internal
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { built, loadModule } from '../config-module.js';
import { UsageError, type CliIO, type ParsedArgs } from '../io.js';
import { importPeer } from '../peer.js';
import { PLUGIN_STORAGES, pluginTablesSql, type SqlDialect } from './plugin-tables.js';

interface Migratable {
  migrate(): Promise<void>;
  readonly config: object;
  adapter?: { close?(): Promise<void> } | undefined;
}

type UserOptions = import('@framework/auth').UserOptions;

const flag = (args: ParsedArgs, name: string) => {
  const value = args.flags.get(name);
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
};

const DIALECTS: readonly SqlDialect[] = ['sqlite', 'postgres', 'mysql'];

/** The plugins `--plugins` names: every one with a SQL storage by default, `none` for the adapter's tables alone. */
function pluginsOption(args: ParsedArgs): string[] {
  const value = flag(args, 'plugins') ?? 'all';
  if (value === 'all') return Object.keys(PLUGIN_STORAGES);
  if (value === 'none') return [];
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.find((name) => !Object.hasOwn(PLUGIN_STORAGES, name));
  if (unknown !== undefined)
    throw new UsageError(
      `unknown plugin "${unknown}" in --plugins (all, none, or some of ${Object.keys(PLUGIN_STORAGES).join(', ')})`,
    );
  return names;
}

/**
 * The app's auth from the `--config` module: its named `auth` export, else its default export (the auth, or a
 * function, possibly async, returning it).
 * @throws Error when the module exports no auth.
 */
async function loadAuth(io: CliIO, config: string): Promise<Migratable> {
  const exports = await loadModule('--config', config, io.cwd);
  const auth = (await built(exports.auth ?? exports.default)) as Migratable | undefined;
  if (!auth || typeof auth.migrate !== 'function')
    throw new Error(
      `--config module ${config} exports no auth: export it as \`export const auth = createAuth(...)\` or \`export default\` (the auth, or a function returning it)`,
    );
  return auth;
}

/**
 * The `user` option of the `--config` module's auth (its `user.additionalFields`, as the engine resolved them), or
 * undefined without `--config` or fields. The auth's adapter is closed again.
 */
async function configUser(io: CliIO, args: ParsedArgs): Promise<UserOptions | undefined> {
  const config = flag(args, 'config');
  if (!config) return undefined;
  const { userFieldsOfAuth } = await importPeer('@framework/auth', () => import('@framework/auth'));
  const auth = await loadAuth(io, config);
  try {
    const fields = userFieldsOfAuth(auth);
    if (fields.length === 0) return undefined;
    return {
      // A resolved field keeps its definition's keys (type, required, input, unique, defaultValue).
      additionalFields: Object.fromEntries(
        fields.map(({ name, column: _, ...definition }) => [name, definition]),
      ) as NonNullable<UserOptions['additionalFields']>,
    };
  } finally {
    await auth.adapter?.close?.();
  }
}

/** `fn()`, its error (a malformed prefix or field) as a usage error. */
async function usage<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * `framework auth generate --dialect <sqlite|postgres|mysql> [--prefix auth_] [--plugins all|none|<a,b>] [--config <module>] [--drizzle] [--out <file>]`:
 * the adapter's schema (`generateMigrationSql`, tables `<prefix>*`, with the columns of the `--config` module's
 * `user.additionalFields`), then the tables of each plugin's SQL storage with its default table prefix (two-factor,
 * admin, organizations, audit-log, api-keys, jwt, anonymous, username, phone-number, oidc-provider; `--plugins` narrows the list), each with its
 * migration bookkeeping, so `auth.migrate()` at start-up finds nothing left to do. With `--drizzle` (sqlite or postgres) it
 * prints the Drizzle schema module of the adapter's tables instead (`generateDrizzleSchema` of
 * `@framework/auth/drizzle`, which needs `drizzle-orm`); the plugins' tables stay with `auth.migrate()`.
 * @returns 0 once printed (or written to `--out`).
 * @throws {UsageError} (exit 2) for a missing or unknown dialect or plugin, a malformed prefix or field, or no
 *   `@framework/auth` installed; Error (exit 1) when the `--config` module fails to load or exports no auth.
 */
export async function generateCommand(io: CliIO, args: ParsedArgs): Promise<number> {
  const dialect = flag(args, 'dialect') as SqlDialect | undefined;
  const drizzle = args.flags.get('drizzle') !== undefined;
  const allowed = drizzle ? DIALECTS.filter((d) => d !== 'mysql') : DIALECTS;
  if (!dialect || !allowed.includes(dialect))
    throw new UsageError(`--dialect must be ${allowed.join(', ')}${drizzle ? ' with --drizzle' : ''}`);
  const plugins = drizzle ? [] : pluginsOption(args);
  const { generateMigrationSql } = await importPeer('@framework/auth', () => import('@framework/auth'));
  const prefix = flag(args, 'prefix');
  const user = await configUser(io, args);
  const options = { ...(prefix ? { tablePrefix: prefix } : {}), ...(user ? { user } : {}) };
  let text: string;
  if (drizzle) {
    const { generateDrizzleSchema } = await importPeer('@framework/auth', () => import('@framework/auth/drizzle'));
    text = await usage(() => generateDrizzleSchema({ dialect: dialect as 'sqlite' | 'postgres', ...options }));
  } else {
    text = await usage(() => generateMigrationSql({ dialect, ...options }));
  }
  for (const plugin of plugins) {
    const { factory } = PLUGIN_STORAGES[plugin]!;
    text += `\n-- plugin ${plugin}: ${factory}(db) with its default tablePrefix; auth.migrate() runs the same\n`;
    text += `${(await pluginTablesSql(plugin, dialect)).join('\n')}\n`;
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
  const auth = await loadAuth(io, config);
  try {
    await auth.migrate();
  } finally {
    await auth.adapter?.close?.();
  }
  io.stdout.write('migrated\n');
  return 0;
}
