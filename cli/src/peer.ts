/**
 * The optional peers of `@framework/cli`: `@framework/auth` for `framework auth`, `@framework/trigger` for
 * `framework triggers`, jiti for TypeScript config modules. Each is imported when a command first needs it; a
 * missing one is a usage error naming the install command.
 * @module
 * @internal
 */
import { UsageError } from './io.js';

/** The peers this loader knows, each with what needs it (for the message). */
const PEERS = {
  '@framework/auth': '`framework auth`',
  '@framework/trigger': '`framework triggers`',
  jiti: 'a TypeScript --config or --env module',
} as const;

/** An optional peer's name. */
export type CliPeer = keyof typeof PEERS;

/**
 * Runs `load` (a dynamic `import()` of the peer, or of a module of this package that imports it).
 * @throws {UsageError} (exit 2) naming the package and `npm install <name>` when `name` itself is not installed;
 *   any other error of `load` as it is.
 * @example
 * ```ts
 * const { generateMigrationSql } = await importPeer('@framework/auth', () => import('@framework/auth'));
 * ```
 */
export async function importPeer<T>(name: CliPeer, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!isMissing(error, name)) throw error;
    throw new UsageError(`${PEERS[name]} needs ${name}, which is not installed: npm install ${name}`, {
      cause: error,
    });
  }
}

/** Whether `error` says that the package `name` itself (not a module inside it) could not be found. */
function isMissing(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = String((error as Error).message);
  // ESM names the package (`'@framework/trigger'`), CommonJS the specifier (`'@framework/trigger/cli'`).
  return [`'${name}'`, `"${name}"`, `'${name}/`, `"${name}/`].some((quoted) => message.includes(quoted));
}
