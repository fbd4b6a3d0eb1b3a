/**
 * `framework triggers test --env`: either inline JSON, or a TS/JS module whose default export is the env (an
 * object, or a function, possibly async, that builds it with real service objects).
 * @module
 * @internal
 */
import { jsonFlag, UsageError, type ParsedArgs } from '../io.js';
import { built, loadModule } from '../config-module.js';

const MODULE = /\.(?:[cm]?[jt]s|tsx|jsx)$/;

/**
 * The env the `--env` option names: undefined without one.
 * @throws {UsageError} for invalid JSON, a missing module, or a module without a usable default export; Error when
 *   the module throws while loading.
 */
export async function envOption(args: ParsedArgs, cwd: string): Promise<unknown> {
  const value = args.flags.get('env');
  if (typeof value !== 'string' || !MODULE.test(value.trim())) return jsonFlag(args, 'env');
  const env = await built((await loadModule('--env', value.trim(), cwd)).default);
  if (env === null || typeof env !== 'object')
    throw new UsageError(`--env module ${value} must export (default) an object, or a function that returns one`);
  return env;
}
