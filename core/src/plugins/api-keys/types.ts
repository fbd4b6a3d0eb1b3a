/**
 * Record and storage shapes of the `apiKeys()` plugin.
 * @module
 */
import type { Session, User } from '../../types.js';

/** A stored API key: never its secret, only the SHA-256 of it. */
export interface ApiKeyRecord {
  /** Opaque id (used to revoke). */
  id: string;
  /**
   * The public part of the key (`fk_<prefix>_…`): 12 lower-case hex characters, unique; shown in lists to
   * recognise a key.
   */
  prefix: string;
  /** Lower-case hex SHA-256 of the secret part. */
  secretHash: string;
  /** The owner's user id. */
  userId: string;
  /** A label given at creation, or null. */
  name: string | null;
  /** Permission patterns the key is limited to (a subset of the owner's), or null: the owner's full permissions. */
  permissions: string[] | null;
  /**
   * Roles granted explicitly at creation (each one the owner held then), or null: none. A key session passes a role
   * check only for these (and the roles they inherit) or a role whose full permission set `permissions` covers.
   */
  roles: string[] | null;
  createdAt: Date;
  /** When the key stops working, or null: never. */
  expiresAt: Date | null;
  /** When the key was revoked, or null. */
  revokedAt: Date | null;
}

/**
 * Where API keys live. {@link createMemoryApiKeyStorage} and
 * {@link createSqlApiKeyStorage} implement it; both pass one conformance suite.
 */
export interface ApiKeyStorage {
  /** Creates or upgrades the tables; idempotent (a no-op in memory). */
  migrate(): Promise<void>;
  /**
   * Stores a new key.
   * @throws StorageConflictError (`CONFLICT`, field `prefix` or `id`) when one is taken.
   */
  create(record: ApiKeyRecord): Promise<void>;
  /** The key with this prefix, revoked or expired ones included, or null. */
  findByPrefix(prefix: string): Promise<ApiKeyRecord | null>;
  /** Every key of `userId` (revoked and expired ones included), oldest first. */
  listByUser(userId: string): Promise<ApiKeyRecord[]>;
  /**
   * Marks key `id` of `userId` revoked at `at`. Returns false when there is
   * no such key of that user or it was already revoked.
   */
  revoke(id: string, userId: string, at: Date): Promise<boolean>;
}

/** What a key looks like in `GET /api-keys` and after creation: no secret, no hash. */
export interface ApiKeyInfo {
  id: string;
  prefix: string;
  name: string | null;
  permissions: string[] | null;
  /** Roles granted explicitly, or null. */
  roles: string[] | null;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601, or null: never expires. */
  expiresAt: string | null;
  /** ISO 8601, or null: not revoked. */
  revokedAt: string | null;
}

/**
 * The session of a request authenticated by an API key, as `getSession()`
 * returns it: the key's owner, with permission checks limited to the key's
 * `permissions` (see `restrictPermissions`).
 */
export interface ApiKeySession extends Session {
  type: 'api-key';
  /** The key's id. */
  keyId: string;
  /** The key's permission restriction, or null: the owner's full permissions. */
  permissions: string[] | null;
  /** The roles the key was granted explicitly, or null. */
  roles: string[] | null;
  user: User;
}
