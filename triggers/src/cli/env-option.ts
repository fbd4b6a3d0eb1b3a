/**
 * `framework triggers test --env`: either inline JSON, or a TS/JS module whose default export is the env (an
 * object, or a function, possibly async, that builds it with real service objects).
 * @module
 * @internal
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { jsonFlag, UsageError, type ParsedArgs } from './io.js';
import { importPeer } from '../optional-peer.js';

const MODULE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;

/**
 * The env the `--env` option names: undefined without one.
 * @throws {UsageError} for invalid JSON, a missing module, or a module without a usable default export.
 */
export async function envOption(args: ParsedArgs, cwd: string): Promise<unknown> {
  const value = args.flags.get('env');
  if (typeof value !== 'string' || !MODULE.test(value.trim())) return jsonFlag(args, 'env');
  const path = resolve(cwd, value.trim());
  if (!existsSync(path)) throw new UsageError(`--env module not found: ${path}`);
  const { createJiti } = await importPeer('jiti', () => import('jiti'));
  const jiti = createJiti(path, { fsCache: false, moduleCache: false });
  let exported: unknown;
  try {
    exported = await jiti.import(path, { default: true });
  } catch (error) {
    throw new UsageError(
      `--env module ${value} could not load: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`,
    );
  }
  const env = typeof exported === 'function' ? await (exported as () => unknown)() : exported;
  if (env === null || typeof env !== 'object')
    throw new UsageError(`--env module ${value} must export (default) an object, or a function that returns one`);
  return env;
}
