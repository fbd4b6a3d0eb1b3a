/**
 * MySQL/MariaDB connection failures that tell a person what to do: each becomes an `Error` with
 * `code: 'STORAGE_UNAVAILABLE'`, a message naming `host:port`, the database and the user (never the password)
 * and the fix, and `mysql2`'s error as `cause`. Error names from the MySQL server error reference; socket codes
 * from Node's `net`.
 * @module
 * @internal
 */
import { codeOf, explainNetworkFailure, messageOf, unavailable, whereOf } from './explain-errors.js';

/** Where a MySQL pool connects; never the password. */
export interface MysqlTarget {
  host: string;
  port: number | string;
  database?: string | undefined;
  user?: string | undefined;
}

/** The target of a `mysql://` URL or of `mysql2` pool options (`mysql2`'s defaults: `localhost:3306`). */
export function mysqlTarget(
  source: string | { host?: unknown; port?: unknown; database?: unknown; user?: unknown } | undefined,
): MysqlTarget {
  const target: MysqlTarget = { host: 'localhost', port: 3306 };
  if (typeof source === 'string') {
    try {
      const url = new URL(source);
      if (url.hostname) target.host = decodeURIComponent(url.hostname);
      if (url.port) target.port = url.port;
      if (url.pathname.length > 1) target.database = decodeURIComponent(url.pathname.slice(1));
      if (url.username) target.user = decodeURIComponent(url.username);
    } catch {
      // Not a URL: mysql2 reports it; the default target is named.
    }
  } else if (source) {
    if (typeof source.host === 'string') target.host = source.host;
    if (typeof source.port === 'number' || typeof source.port === 'string') target.port = source.port;
    if (typeof source.database === 'string') target.database = source.database;
    if (typeof source.user === 'string') target.user = source.user;
  }
  return target;
}

/** What a `mysql2` connection failure means for `target`, and what to do; other errors pass through unchanged. */
export function explainMysqlError(error: unknown, target: MysqlTarget): unknown {
  const code = codeOf(error);
  const where = whereOf('MySQL', target, 'the host and port of createMysqlAdapter({ url | config })');
  const { at, context } = where;
  const network = explainNetworkFailure(error, where);
  if (network) return network;
  if (code === 'ER_ACCESS_DENIED_ERROR' || code === 'ER_DBACCESS_DENIED_ERROR')
    return unavailable(
      `${at} refused the credentials${context}: check the user and password, and the user's grants on the database.`,
      error,
    );
  if (code === 'ER_BAD_DB_ERROR')
    return unavailable(
      `${at} has no such database${context}: create it (\`CREATE DATABASE ${target.database ?? '<name>'}\`) or fix the database name.`,
      error,
    );
  if (code === 'ER_CON_COUNT_ERROR' || code === 'ER_TOO_MANY_USER_CONNECTIONS')
    return unavailable(
      `${at} has no free connection${context}: lower connectionLimit or raise max_connections.`,
      error,
    );
  if (code === 'PROTOCOL_CONNECTION_LOST' || code === 'ECONNRESET')
    return unavailable(
      `${at} dropped the connection${context} (${code || messageOf(error)}): retry, and check the server's log.`,
      error,
    );
  return error;
}
