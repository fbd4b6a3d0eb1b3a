/**
 * Loading the app's own modules for the CLI (`auth migrate --config`, `triggers test --env`): plain JavaScript
 * through Node's `import()`, TypeScript through jiti (an optional peer of `@framework/cli`, needed only then).
 * @module
 * @internal
 */
import { existsSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UsageError } from './io.js';
import { importPeer } from './peer.js';

/** Extensions Node imports itself; anything else (`.ts`, `.mts`, `.cts`, `.tsx`) goes through jiti. */
const PLAIN_JS = new Set(['.js', '.mjs', '.cjs']);

/**
 * The exports of the module at `file` (resolved against `cwd`), as a record of export names.
 * `.js`/`.mjs`/`.cjs` are loaded with `import()`, so a JavaScript config needs no jiti; other extensions with jiti.
 *
 * @param option the flag naming the module (`--config`, `--env`), for messages.
 * @throws {UsageError} (exit 2) when the file does not exist; Error (exit 1) naming the module and the first line of
 *   its error when it throws while loading; a UsageError naming `npm install jiti` for a TypeScript module without jiti installed.
 */
export async function loadModule(option: string, file: string, cwd: string): Promise<Record<string, unknown>> {
  const path = resolve(cwd, file);
  if (!existsSync(path)) throw new UsageError(`${option} module not found: ${path}`);
  const plain = PLAIN_JS.has(extname(path));
  const jiti = plain
    ? undefined
    : (await importPeer('jiti', () => import('jiti'))).createJiti(path, {
        fsCache: false,
        moduleCache: false,
        interopDefault: false,
      });
  try {
    if (!jiti) return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    const loaded = await jiti.import<unknown>(path);
    return loaded !== null && typeof loaded === 'object' ? (loaded as Record<string, unknown>) : { default: loaded };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    throw new Error(`${option} module ${file} could not load: ${message}`, { cause: error });
  }
}

/** `value`, or what it returns (awaited) when it is a function: a module may export a value or its factory. */
export async function built(value: unknown): Promise<unknown> {
  return typeof value === 'function' ? await (value as () => unknown)() : value;
}
