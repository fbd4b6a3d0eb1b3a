/**
 * `@framework/trigger/cli`: what the `framework` command of `@framework/cli` needs from this package beyond its
 * public API: reading a trigger directory file by file, and checking an `--event` against a source. The command
 * itself lives in `@framework/cli`.
 *
 * @module
 */
import { basename, join, resolve } from 'node:path';
import { isTriggerDefinition } from '../define.js';
import { TriggerDefinitionError } from '../errors.js';
import { discoverTriggerFiles, type LoadedTriggers } from '../load.js';
import { importPeer } from '../optional-peer.js';

export { discoverTriggerFiles } from '../load.js';
export { eventShapeProblem } from './event-shape.js';

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
  const [self, verifiers] = await Promise.all([import('../index.js'), import('../verifiers.js')]);
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
