/**
 * `createSqlJwksStorage`: signing keys in a SQL table, over a Kysely
 * instance you own (SQLite, PostgreSQL or MySQL/MariaDB).
 * @module
 */
import type { Kysely } from 'kysely';
import type { SqlDialectName } from '../../../storage/sql/dialect.js';
import { pluginSql } from '../../plugin-sql.js';
import { jwksMigrations, jwksTables } from './sql-schema.js';
import type { JwksStorage, JwtSigningAlgorithm, StoredSigningKey } from './types.js';

/** Options of {@link createSqlJwksStorage}. */
export interface SqlJwksStorageOptions {
  /**
   * Name of the keys table, and prefix of the storage's other tables (letters, digits, `_`). Default `auth_jwks`.
   * Migration bookkeeping goes in `<tablePrefix>_migrations` and
   * `<tablePrefix>_migrations_lock`.
   */
  tablePrefix?: string;
  /** @deprecated Use `tablePrefix` (the same name); removed in the next version. Ignored when `tablePrefix` is set. */
  tableName?: string;
  /** Which SQL `db` speaks. Default: detected from the Kysely dialect (SQLite, PostgreSQL or MySQL/MariaDB). */
  dialect?: SqlDialectName;
}

interface KeyRow {
  kid: string;
  alg: string;
  generation: number | string;
  public_jwk: string;
  private_key: string;
  /** Milliseconds since the epoch; PostgreSQL `bigint` arrives as a string. */
  created_at: number | string;
}

const toKey = (row: KeyRow): StoredSigningKey => ({
  kid: row.kid,
  alg: row.alg as JwtSigningAlgorithm,
  generation: Number(row.generation),
  publicJwk: JSON.parse(row.public_jwk) as StoredSigningKey['publicJwk'],
  privateKey: row.private_key,
  createdAt: new Date(Number(row.created_at)),
});

/**
 * Creates a key storage over one SQL table (default `auth_jwks`), for
 * SQLite (≥ 3.35), MySQL/MariaDB or PostgreSQL through your Kysely instance. Call
 * `migrate()` once at start-up (`auth.migrate()` does it for the plugin):
 * it creates the table by code and is idempotent.
 *
 * `generation` has a unique index, so when two instances rotate at once
 * exactly one new key is stored; the other instance's `add` returns false.
 * Private keys arrive sealed by the plugin (AES-256-GCM); this storage never
 * sees them in clear. The caller owns `db` and destroys it.
 *
 * @throws TypeError at creation for a malformed `tablePrefix`, an unknown
 *   `dialect`, or a dialect that cannot be detected.
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * import { Kysely, SqliteDialect } from 'kysely';
 * import { createSqlJwksStorage, jwt } from '@framework/auth/plugins/jwt';
 *
 * const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database('.data/app.db') }) });
 * const plugin = jwt({ storage: createSqlJwksStorage(db), audience: 'https://api.example.com' });
 * ```
 */
export function createSqlJwksStorage(db: Kysely<any>, options: SqlJwksStorageOptions = {}): JwksStorage {
  const { q, prefix, traits, migrate } = pluginSql(
    db,
    { tablePrefix: options.tablePrefix ?? options.tableName, dialect: options.dialect },
    'auth_jwks',
    'createSqlJwksStorage',
  );
  const t = jwksTables(prefix);

  return {
    migrate: () => migrate(jwksMigrations(t, traits)),
    async list() {
      const rows = await q.selectFrom(t.keys).selectAll().orderBy('generation', 'desc').$castTo<KeyRow>().execute();
      return rows.map(toKey);
    },
    async add(key) {
      const row: KeyRow = {
        kid: key.kid,
        alg: key.alg,
        generation: key.generation,
        public_jwk: JSON.stringify(key.publicJwk),
        private_key: key.privateKey,
        created_at: key.createdAt.getTime(),
      };
      try {
        await q.insertInto(t.keys).values(row).execute();
        return true;
      } catch (error) {
        if (traits.uniqueViolation(error) === null) throw error;
        return false;
      }
    },
    async remove(kids) {
      if (kids.length === 0) return;
      await q
        .deleteFrom(t.keys)
        .where('kid', 'in', [...kids])
        .execute();
    },
  };
}
