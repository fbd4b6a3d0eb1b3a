/**
 * Table names and row shapes of the SQL adapter. Times are integer
 * milliseconds since the epoch (PostgreSQL `bigint` arrives as a string, so
 * readers accept both); `roles` and `transports` are JSON text.
 * @module
 * @internal
 */

/** Default prefix of every table the adapter creates. */
export const DEFAULT_TABLE_PREFIX = 'auth_';

const PREFIX_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,30}$/;

/** The names of the adapter's tables for one prefix. */
export interface TableNames {
  users: string;
  accounts: string;
  sessions: string;
  verificationTokens: string;
  authenticators: string;
  migrations: string;
  migrationLock: string;
}

/**
 * Table names for `prefix`.
 * @throws TypeError when the prefix is not a plain SQL identifier part
 * (letters, digits, `_`, at most 31 characters, not starting with a digit).
 */
export function tableNames(prefix: string = DEFAULT_TABLE_PREFIX): TableNames {
  if (!PREFIX_PATTERN.test(prefix)) {
    throw new TypeError(`tablePrefix must match ${PREFIX_PATTERN}; got ${JSON.stringify(prefix)}`);
  }
  return {
    users: `${prefix}users`,
    accounts: `${prefix}accounts`,
    sessions: `${prefix}sessions`,
    verificationTokens: `${prefix}verification_tokens`,
    authenticators: `${prefix}authenticators`,
    migrations: `${prefix}migrations`,
    migrationLock: `${prefix}migrations_lock`,
  };
}

/** An integer as a driver returns it: number (SQLite) or string (PostgreSQL `bigint`). */
export type DbInt = number | string;

export interface UserRow {
  id: string;
  email: string | null;
  /** `email` lower-cased; unique. */
  email_normalized: string | null;
  name: string | null;
  image: string | null;
  email_verified: DbInt | null;
  role: string | null;
  /** JSON array of strings, or null. */
  roles: string | null;
  /** Bumped to end JWT sessions (migration 0002; default 0). */
  session_version: DbInt;
}

export interface AccountRow {
  provider: string;
  provider_account_id: string;
  user_id: string;
  type: string;
  access_token: string | null;
  refresh_token: string | null;
  /** Seconds since the epoch, as in RFC 6749 responses. */
  expires_at: DbInt | null;
  token_type: string | null;
  scope: string | null;
  id_token: string | null;
  password_hash: string | null;
}

export interface SessionRow {
  id: string;
  token_hash: string;
  user_id: string;
  expires: DbInt;
  created_at: DbInt;
  /** Session metadata (migration 0003; null on older rows). */
  user_agent: string | null;
  ip: string | null;
  last_active_at: DbInt | null;
  /** The impersonating admin's user id (migration 0004; null on ordinary sessions). */
  impersonated_by: string | null;
}

export interface VerificationTokenRow {
  identifier: string;
  token_hash: string;
  expires: DbInt;
}

export interface AuthenticatorRow {
  credential_id: string;
  user_id: string;
  public_key: string;
  counter: DbInt;
  /** JSON array of strings. */
  transports: string;
  device_type: string;
  /** 0/1 in SQLite, boolean in PostgreSQL. */
  backed_up: number | boolean;
  name: string | null;
  created_at: DbInt;
}
