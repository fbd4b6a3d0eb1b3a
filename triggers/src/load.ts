import { readdir } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { isTriggerDefinition } from './define.js';
import { TriggerDefinitionError } from './errors.js';
import type { TriggerDefinition } from './types.js';
import { importPeer } from './optional-peer.js';

/** Triggers found in a directory, by name (the file name without extension). */
export type LoadedTriggers = Record<string, TriggerDefinition>;

const EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs']);

/**
 * Loads every trigger file of `dir` (not recursive) with jiti, so TypeScript
 * works without a build. Each file default-exports a `defineTrigger(...)`
 * result; its name is the file name: `app/triggers/daily-cleanup.ts` →
 * `daily-cleanup`. Files starting with `_` or `.`, declaration files and tests
 * (`*.test.*`, `*.spec.*`) are skipped. Imports of `@framework/trigger` and
 * `@framework/trigger/verifiers` inside those files resolve to this very copy
 * of the package.
 *
 * @param dir - directory, absolute or relative to `process.cwd()`
 * @returns triggers by name, sorted by name
 * @throws {TriggerDefinitionError} when a file has no trigger as default export, or a definition is invalid
 * (the message names the file)
 * @example
 * ```ts
 * const triggers = await loadTriggersFromDir('app/triggers');
 * const runtime = createTriggerRuntime({ triggers, env });
 * ```
 */
export async function loadTriggersFromDir(dir: string): Promise<LoadedTriggers> {
  const { triggers, failed } = await scanTriggerDir(dir);
  const first = Object.values(failed)[0];
  if (first) throw first;
  return triggers;
}

/** A trigger directory read file by file: what loaded, and what did not. */
export interface TriggerDirScan {
  /** The triggers that loaded, by name (the file name without extension), sorted by name. */
  triggers: LoadedTriggers;
  /** Every trigger file by name, absolute paths, sorted by name: those that loaded and those that failed. */
  files: Record<string, string>;
  /**
   * The files that did not give a trigger, by name: a `TriggerDefinitionError` whose message starts with the file
   * name (`oops.ts: could not load: …`, `oops.ts: the default export is not a defineTrigger(...) result`).
   */
  failed: Record<string, TriggerDefinitionError>;
}

/**
 * Reads every trigger file of `dir` like `loadTriggersFromDir` (same discovery rules, jiti for TypeScript, imports
 * of `@framework/trigger` and `@framework/trigger/verifiers` resolved to this copy of the package), but one file
 * that throws while loading or exports no trigger does not hide the others: it is reported in `failed`.
 *
 * @param dir - directory, absolute or relative to `process.cwd()`
 * @throws {TriggerDefinitionError} when two files give the same name (the directory as a whole is ambiguous);
 *   `MISSING_DEPENDENCY` when jiti is not installed; the file system's error when `dir` cannot be read.
 * @example
 * ```ts
 * import { scanTriggerDir } from '@framework/trigger/cli';
 *
 * const { triggers, failed } = await scanTriggerDir('app/triggers');
 * for (const error of Object.values(failed)) console.error(error.message);
 * ```
 */
export async function scanTriggerDir(dir: string): Promise<TriggerDirScan> {
  const root = resolve(dir);
  const files = await discoverTriggerFiles(root);
  const { createJiti } = await importPeer('jiti', () => import('jiti'));
  const [self, verifiers] = await Promise.all([import('./index.js'), import('./verifiers.js')]);
  const jiti = createJiti(join(root, '_loader.js'), {
    fsCache: false,
    moduleCache: false,
    virtualModules: { '@framework/trigger': self, '@framework/trigger/verifiers': verifiers },
  });
  const scan: TriggerDirScan = { triggers: {}, files, failed: {} };
  for (const [name, path] of Object.entries(files)) {
    const outcome = await jiti.import(path, { default: true }).then(
      (loaded) =>
        isTriggerDefinition(loaded)
          ? loaded
          : new TriggerDefinitionError(basename(path), 'the default export is not a defineTrigger(...) result'),
      (error: unknown) =>
        new TriggerDefinitionError(
          basename(path),
          `could not load: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`,
        ),
    );
    if (outcome instanceof TriggerDefinitionError) scan.failed[name] = outcome;
    else scan.triggers[name] = outcome;
  }
  return scan;
}

/**
 * The trigger files of `dir` by trigger name (absolute paths, sorted by name).
 * @throws {TriggerDefinitionError} when two files give the same name
 */
export async function discoverTriggerFiles(dir: string): Promise<Record<string, string>> {
  const root = resolve(dir);
  const entries = await readdir(root, { withFileTypes: true });
  const files: Record<string, string> = {};
  for (const file of entries
    .filter((e) => e.isFile() && isTriggerFile(e.name))
    .map((e) => e.name)
    .sort()) {
    const name = basename(file, extname(file));
    if (name in files) throw new TriggerDefinitionError(file, `two files define the trigger "${name}"`);
    files[name] = join(root, file);
  }
  return files;
}

function isTriggerFile(file: string): boolean {
  if (file.startsWith('_') || file.startsWith('.')) return false;
  if (/\.d\.[cm]?ts$/.test(file) || /\.(test|spec)\.[cm]?[jt]s$/.test(file)) return false;
  return EXTENSIONS.has(extname(file));
}
