/**
 * What the SQL storages of plugins share: the checked table prefix, the dialect, and running their own
 * migrations under `<prefix>_migrations`.
 * @module
 * @internal
 */
import type { Kysely, Migration } from 'kysely';
import { detectDialect, dialects, type DialectTraits, type SqlDialectName } from '../storage/sql/dialect.js';
import { runMigrations } from '../storage/sql/migrator.js';
import type { StorageAdapter } from '../storage/types.js';
import { AuthConfigError } from '../errors.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,30}$/;

/** A plugin's SQL set-up. */
export interface PluginSql {
  /** `db` without its plugins (row names stay snake_case). */
  q: Kysely<any>;
  prefix: string;
  dialect: SqlDialectName;
  traits: DialectTraits;
  /** Runs `migrations(traits)` once per database, recorded in `<prefix>_migrations`. */
  migrate(migrations: Record<string, Migration>): Promise<void>;
}

/**
 * @param who The factory's name, for the dialect-detection error.
 * @throws TypeError for a malformed `tablePrefix` or an unknown or undetectable dialect.
 */
export function pluginSql(
  db: Kysely<any>,
  options: { tablePrefix?: string; dialect?: SqlDialectName },
  defaultPrefix: string,
  who: string,
): PluginSql {
  const prefix = options.tablePrefix ?? defaultPrefix;
  if (typeof prefix !== 'string' || !IDENTIFIER.test(prefix))
    throw new TypeError(`tablePrefix must match ${IDENTIFIER} (letters, digits, "_"); got ${JSON.stringify(prefix)}`);
  const dialect = options.dialect ?? detectDialect(db, who);
  const traits = dialects[dialect];
  if (!traits)
    throw new TypeError(`Unknown SQL dialect ${JSON.stringify(dialect)}: use 'sqlite', 'postgres' or 'mysql'`);
  const q = db.withoutPlugins();
  return {
    q,
    prefix,
    dialect,
    traits,
    migrate: (migrations) =>
      runMigrations(q, { migrations, table: `${prefix}_migrations`, lockTable: `${prefix}_migrations_lock`, dialect }),
  };
}

/** How a plugin builds its storage on the app's own adapter. */
export interface AdapterStorageFactories<S> {
  /** On a SQL adapter: the plugin's SQL storage over `adapter.kysely` (or what `adapter.loadKysely()` gives). */
  sql(db: Kysely<any>): S;
  /** On the memory adapter: the plugin's memory storage. */
  memory(): S;
}

/** A plugin's storage, either given or built from `auth.adapter` when the plugin is initialised. */
export interface AdapterStorage<S> {
  /** The storage: `given`, or a handle forwarding to the one `bind` builds. */
  readonly storage: S;
  /**
   * Builds the default storage from `adapter` (once; later calls keep it). Does nothing when a storage was given.
   * @throws AuthConfigError (`INVALID_CONFIG`) without `adapter`, or for an adapter that is neither SQL (`kysely`)
   *   nor memory.
   */
  bind(adapter: StorageAdapter | undefined): void;
}

/**
 * The storage a plugin uses: the `storage` option when given, else the plugin's storage in the app's own database,
 * built by `bind(auth.adapter)` in the plugin's `init` (SQL adapters: `make.sql(adapter.kysely)`, migrated by
 * `auth.migrate()`; the memory adapter: `make.memory()`). Using the handle before `bind` throws a TypeError.
 *
 * The SQL adapters of the index load Kysely after they are created (a light `import('@framework/auth')`), so
 * `adapter.kysely` may not be there yet when `createAuth` binds: the storage is then built once
 * `adapter.loadKysely()` resolves, and until then each member of the handle reads as an async function that waits
 * for it and calls the storage's own (a plugin storage's members are methods returning promises).
 * @param plugin The plugin's factory name, for error messages (`twoFactor()`).
 */
export function adapterStorage<S extends object>(
  plugin: string,
  given: S | undefined,
  make: AdapterStorageFactories<S>,
): AdapterStorage<S> {
  if (given) return { storage: given, bind: () => {} };
  let target: S | undefined;
  let building: Promise<S> | undefined;
  const storage = new Proxy({} as S, {
    get(_, key) {
      if (target) {
        const value = Reflect.get(target, key) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      }
      if (building) {
        // `then` (and any symbol) reads undefined, so the handle is never taken for a promise.
        if (typeof key !== 'string' || key === 'then') return undefined;
        return (...args: unknown[]) => building!.then((built) => callMember(built, key, args));
      }
      throw new TypeError(`${plugin}: its storage is built from the auth adapter by createAuth`);
    },
  });
  return {
    storage,
    bind(adapter) {
      if (target || building) return;
      if (adapter?.kysely) target = make.sql(adapter.kysely);
      else if (adapter?.loadKysely) {
        building = adapter.loadKysely().then((db) => (target ??= make.sql(db)));
        // A failed load rejects the calls that wait for it.
        building.catch(() => {});
      } else if (adapter?.kind === 'memory') target = make.memory();
      else
        throw new AuthConfigError(
          `Invalid auth config: ${plugin} needs \`storage\`, or an \`adapter\` that is SQL (with \`kysely\`) or memory`,
        );
    },
  };
}

/** `target[key](...args)`, or `target[key]` when it is not a method (an optional one it lacks reads undefined). */
function callMember(target: object, key: string, args: unknown[]): unknown {
  const value = Reflect.get(target, key) as unknown;
  return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).apply(target, args) : value;
}
