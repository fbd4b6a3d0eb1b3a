/**
 * Database errors that tell a person what to do: an SQLite file that cannot
 * be opened or written, a PostgreSQL server that cannot be reached. Each
 * becomes an `Error` with `code: 'STORAGE_UNAVAILABLE'`, a message naming the
 * file (or host and port) and the fix, and the driver's error as `cause`.
 * @module
 * @internal
 */
import { attachSessionReadNow, sessionReadNowOf } from '../session-read-now.js';
import type { StorageAdapter } from '../types.js';

/** An error thrown by a storage adapter when its database cannot be opened, reached or written. */
export interface StorageUnavailableError extends Error {
  code: 'STORAGE_UNAVAILABLE';
}

/** Turns a driver error into the error to throw (the same one when there is nothing to add). */
export type ExplainError = (error: unknown) => unknown;

/** An error with `code: 'STORAGE_UNAVAILABLE'`, `message` and the driver's error as `cause`. */
export function unavailable(message: string, cause: unknown): StorageUnavailableError {
  return Object.assign(new Error(message, { cause }), { code: 'STORAGE_UNAVAILABLE' as const });
}

export const codeOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
    ? (error as { code: string }).code
    : '';
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * What SQLite (better-sqlite3's `SqliteError` codes) or the file system said, for the database file at
 * `file` (an absolute path), and what to do about it.
 */
export function explainSqliteError(error: unknown, file: string): unknown {
  const code = codeOf(error);
  const where = `the SQLite database file "${file}"`;
  const fix = `or set createSqliteAdapter({ filename }) to a path this process can write`;
  if (code === 'SQLITE_CANTOPEN' || /directory does not exist/.test(messageOf(error)))
    return unavailable(
      `Cannot open ${where} (${code || 'no such folder'}): check that its folder exists, that the path is not a folder itself, and that this process may read and write there, ${fix}.`,
      error,
    );
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM' || code === 'SQLITE_AUTH')
    return unavailable(
      `Cannot write to ${where} (${code}): the file or its folder is read-only for this process. Give write permission to both (WAL mode creates "-wal" and "-shm" files beside the database), ${fix}.`,
      error,
    );
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
    return unavailable(
      `${where.replace(/^t/, 'T')} is not a usable SQLite database (${code}): point filename at another path, or move this file away if it is not needed.`,
      error,
    );
  if (code === 'SQLITE_FULL' || code === 'ENOSPC')
    return unavailable(`The disk holding ${where} is full (${code}): free some space.`, error);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
    return unavailable(
      `${where.replace(/^t/, 'T')} stayed locked by another connection (${code}): only one process should write to a SQLite file at a time; use PostgreSQL for several instances.`,
      error,
    );
  if (code.startsWith('SQLITE_IOERR'))
    return unavailable(`Reading or writing ${where} failed (${code}): check the disk and the file system.`, error);
  if (['EACCES', 'EPERM', 'EROFS', 'ENOTDIR', 'EEXIST'].includes(code))
    return unavailable(
      `Cannot create the folder of ${where} (${code}: ${messageOf(error)}): create it yourself with write permission for this process, ${fix}.`,
      error,
    );
  return error;
}

/** Where a PostgreSQL pool connects; never the password. */
export interface PostgresTarget {
  host: string;
  port: number | string;
  database?: string | undefined;
  user?: string | undefined;
}

/**
 * The target of a `pg` connection string, else of the `PG*` environment variables, else `pg`'s defaults
 * (`localhost:5432`). A string that does not parse as a URL names only the environment's target.
 */
export function postgresTarget(connectionString: string | undefined, env: Record<string, string | undefined>) {
  const target: PostgresTarget = {
    host: env.PGHOST || 'localhost',
    port: env.PGPORT || 5432,
    database: env.PGDATABASE || undefined,
    user: env.PGUSER || env.USER || undefined,
  };
  if (!connectionString) return target;
  try {
    const url = new URL(connectionString);
    const host = url.searchParams.get('host') || decodeURIComponent(url.hostname);
    if (host) target.host = host;
    if (url.port) target.port = url.port;
    if (url.pathname.length > 1) target.database = decodeURIComponent(url.pathname.slice(1));
    if (url.username) target.user = decodeURIComponent(url.username);
  } catch {
    // A key=value connection string: pg parses it; the message names what the environment says.
  }
  return target;
}

const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET']);
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);

/** Where a database server is, as the explanations name it: never its password. */
export interface ServerPlace {
  /** `PostgreSQL at host:port`. */
  at: string;
  /** ` (database "x", user "y")`, or empty. */
  context: string;
  /** Which settings choose the host and port. */
  settings: string;
  host: string;
}

/** The place of `target` on a server of `kind`, whose host and port are set by `settings`. */
export function whereOf(
  kind: string,
  target: { host: string; port: string | number; database?: string; user?: string },
  settings: string,
): ServerPlace {
  const who = [target.database ? `database "${target.database}"` : '', target.user ? `user "${target.user}"` : ''];
  const named = who.filter(Boolean);
  return {
    at: `${kind} at ${target.host}:${target.port}`,
    context: named.length ? ` (${named.join(', ')})` : '',
    settings,
    host: target.host,
  };
}

/**
 * The explanation of a failure to reach the server at all (refused, unknown host, no answer; socket codes from
 * Node's `net`), or undefined for any other error. `timedOut`: the driver reported a time-out of its own.
 */
export function explainNetworkFailure(error: unknown, place: ServerPlace, timedOut = false): unknown {
  const code = codeOf(error);
  const { at, context, settings } = place;
  if (code === 'ECONNREFUSED')
    return unavailable(`${at} refused the connection${context}: start the server, or fix ${settings}.`, error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return unavailable(
      `${at} cannot be found: the host name "${place.host}" does not resolve${context}; fix ${settings}.`,
      error,
    );
  if (UNREACHABLE.has(code) || timedOut)
    return unavailable(`${at} did not answer${context}: check ${settings}, and any firewall between.`, error);
  return undefined;
}

/**
 * What a `pg` connection failure means for `target`, and what to do about it. SQLSTATE codes from the
 * PostgreSQL manual, Appendix A; socket codes from Node's `net`.
 */
export function explainPostgresError(error: unknown, target: PostgresTarget): unknown {
  const code = codeOf(error);
  const message = messageOf(error);
  const where = whereOf('PostgreSQL', target, 'the host and port in connectionString, or PGHOST and PGPORT');
  const { at, context, settings } = where;
  const network = explainNetworkFailure(error, where, /connection timeout|timeout expired/i.test(message));
  if (network) return network;
  if (code === '28P01' || code === '28000')
    return unavailable(
      `${at} refused the credentials${context}: check the user and password of the connection, and pg_hba.conf.`,
      error,
    );
  if (code === '3D000')
    return unavailable(
      `${at} has no such database${context}: create it (\`createdb ${target.database ?? '<name>'}\`) or fix the database name in the connection string.`,
      error,
    );
  if (code === '53300')
    return unavailable(
      `${at} has no free connection slot${context}: lower the pool size or raise max_connections.`,
      error,
    );
  if (code === '57P03')
    return unavailable(`${at} is starting up or shutting down${context}: retry in a moment.`, error);
  if (CONNECT_FAILURES.has(code) || /does not support SSL|Connection terminated unexpectedly/i.test(message))
    return unavailable(
      `${at} dropped the connection${context} (${code || message}): check ${settings} and its SSL settings.`,
      error,
    );
  return error;
}

/**
 * A rejection handler: throws `error` passed through `explain`, except an error already explained
 * (`STORAGE_UNAVAILABLE`), which is thrown as it is.
 */
export function explainedRethrow(explain: ExplainError): (error: unknown) => never {
  return (error) => {
    throw codeOf(error) === 'STORAGE_UNAVAILABLE' ? error : explain(error);
  };
}

/**
 * `adapter` with every method's rejection passed through `explain`. A `StorageConflictError` or any error
 * `explain` does not know passes unchanged. `readNowExplained`: the adapter's synchronous session read explains its
 * own errors already (it is passed on as it is, one promise hop fewer per read).
 */
export function withExplainedErrors(
  adapter: StorageAdapter,
  explain: ExplainError,
  { readNowExplained = false }: { readNowExplained?: boolean } = {},
): StorageAdapter {
  const explained: Record<string, unknown> = {};
  const rethrow = explainedRethrow(explain);
  for (const [name, value] of Object.entries(adapter)) {
    // One `.catch` per call rather than an async wrapper: the session read runs through here on every request.
    explained[name] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            try {
              return Promise.resolve((value as (...a: unknown[]) => unknown).apply(adapter, args)).catch(rethrow);
            } catch (error) {
              return Promise.reject(error).catch(rethrow);
            }
          }
        : value;
  }
  const wrapped = explained as unknown as StorageAdapter;
  // The synchronous session read (non-enumerable, so not among the entries above) gets the same explanations.
  const readNow = sessionReadNowOf(adapter);
  if (readNow) {
    attachSessionReadNow(
      wrapped,
      readNowExplained
        ? (id) => readNow(id)
        : (id) => {
            try {
              const found = readNow(id);
              return found instanceof Promise ? found.catch(rethrow) : found;
            } catch (error) {
              return rethrow(error);
            }
          },
      wrapped.getSessionAndUser,
    );
  }
  return wrapped;
}
