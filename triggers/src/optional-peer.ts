/**
 * The optional peer dependencies of `@framework/trigger`, each imported when the engine, source or command that
 * needs it is first used. An app on the in-process engine installs none of them.
 * @module
 * @internal
 */
import { TriggerError } from './errors.js';

/** The packages this loader knows, each with what needs it (for the error message). */
export const OPTIONAL_PEERS = {
  bullmq: 'bullmqEngine',
  redis: 'a Redis connection URL (bullmqEngine, redisReplayStore)',
  'smtp-server': 'the email source (SMTP ingress)',
  mailparser: 'the email source (message parsing)',
  jiti: 'loading TypeScript trigger files and config modules',
} as const;

/** An optional peer's name. */
export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/**
 * Imports an optional peer through `load` (a dynamic `import()` literal, so bundlers still see it).
 * @throws TriggerError code `MISSING_DEPENDENCY` (not retryable) naming the package and the install command, with
 *   the loader's error as `cause`, when the package is not installed.
 * @example
 * ```ts
 * const bullmq = await importPeer('bullmq', () => import('bullmq'));
 * ```
 */
export async function importPeer<T>(name: OptionalPeer, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (cause) {
    if (!isNotFound(cause, name)) throw cause;
    throw new TriggerError(
      `${OPTIONAL_PEERS[name]} needs the package "${name}", which is not installed. Install it with \`npm install ${name}\`.`,
      { code: 'MISSING_DEPENDENCY', retryable: false, cause, context: { dependency: name } },
    );
  }
}

/** Whether `error` says that `name` itself (not something inside it) could not be found. */
function isNotFound(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  return (
    String((error as Error).message).includes(`'${name}'`) || String((error as Error).message).includes(`"${name}"`)
  );
}
