/**
 * `framework auth migrate --config <module>` and `framework auth generate --dialect <sqlite|postgres>`: the auth
 * storage schema for apps that migrate outside start-up. `@framework/auth` is loaded when these run; without it
 * they answer one line naming the install command.
 * @module
 * @internal
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UsageError, type CliIO, type ParsedArgs } from './io.js';
import { importPeer } from '../optional-peer.js';

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

/** `framework auth generate --dialect <sqlite|postgres> [--prefix auth_] [--out <file>]`. */
export async function generateCommand(io: CliIO, args: ParsedArgs): Promise<number> {
  const dialect = flag(args, 'dialect');
  if (dialect !== 'sqlite' && dialect !== 'postgres') throw new UsageError('--dialect must be sqlite or postgres');
  const { generateMigrationSql } = await authPackage();
  const prefix = flag(args, 'prefix');
  let text: string;
  try {
    text = await generateMigrationSql({ dialect, ...(prefix ? { tablePrefix: prefix } : {}) });
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
 * `framework auth migrate --config <module>`: the module's default export is the app's `createAuth(...)` result
 * (or a function, possibly async, returning it); runs `auth.migrate()` (the adapter's migrations, then every
 * plugin's) and closes the adapter.
 */
export async function migrateCommand(io: CliIO, args: ParsedArgs): Promise<number> {
  const config = flag(args, 'config');
  if (!config) throw new UsageError('--config <module> is required: a module whose default export is your auth');
  const path = resolve(io.cwd, config);
  if (!existsSync(path)) throw new UsageError(`--config module not found: ${path}`);
  const { createJiti } = await importPeer('jiti', () => import('jiti'));
  const jiti = createJiti(path, { fsCache: false, moduleCache: false });
  let exported: unknown;
  try {
    exported = await jiti.import(path, { default: true });
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new Error(`--config module ${config} could not load: ${message}`, { cause: error });
  }
  const auth = (typeof exported === 'function' ? await (exported as () => unknown)() : exported) as Migratable;
  if (!auth || typeof auth.migrate !== 'function')
    throw new UsageError(`--config module ${config} must export (default) your auth, or a function returning it`);
  try {
    await auth.migrate();
  } finally {
    await auth.adapter?.close?.();
  }
  io.stdout.write('migrated\n');
  return 0;
}
