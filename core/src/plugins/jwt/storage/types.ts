/**
 * The storage contract of the `jwt()` plugin's signing keys.
 * @module
 */
import type { JWK } from 'jose';

/** The JWS algorithms the plugin signs with (RFC 8037 EdDSA over Ed25519, RFC 7518 §3.4 ES256). */
export type JwtSigningAlgorithm = 'EdDSA' | 'ES256';

/**
 * One signing key as stored. Keys form a chain of generations: the key with
 * the highest `generation` signs; a key stops signing when the next
 * generation is created (its successor's `createdAt`), and stays published
 * in the JWKS for the grace period after that.
 */
export interface StoredSigningKey {
  /** Key id (`kid`): the RFC 7638 JWK thumbprint of the public key. */
  kid: string;
  alg: JwtSigningAlgorithm;
  /** 1 for the first key, +1 on each rotation; unique, so two concurrent rotations cannot both win. */
  generation: number;
  /** The public JWK (no private members). */
  publicJwk: JWK;
  /** The private JWK as JSON, sealed with AES-256-GCM under the auth `secret` (`enc:v1:…`); never plain text. */
  privateKey: string;
  createdAt: Date;
}

/**
 * Where signing keys live. `createMemoryJwksStorage()` and
 * `createSqlJwksStorage(db)` implement it; both pass the same conformance
 * suite (`storage/conformance.ts`).
 */
export interface JwksStorage {
  /** Creates or upgrades the storage's tables; idempotent. A no-op in memory. */
  migrate(): Promise<void>;
  /** Every stored key, highest `generation` first. */
  list(): Promise<StoredSigningKey[]>;
  /**
   * Adds `key` unless its `generation` (or `kid`) is taken. Returns false
   * when it is: another instance rotated first, and the caller should
   * re-read the keys and sign with the winner's.
   */
  add(key: StoredSigningKey): Promise<boolean>;
  /** Removes the keys with these ids (keys past their grace period); unknown ids are ignored. */
  remove(kids: readonly string[]): Promise<void>;
}
