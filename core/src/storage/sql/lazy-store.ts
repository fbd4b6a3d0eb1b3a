/**
 * The SQL store behind `createSqliteAdapter`, `createPostgresAdapter`, `createMysqlAdapter`, `createD1Adapter` and
 * `createSqlAdapter`, loaded on demand: importing `@framework/auth` loads neither Kysely nor the store (about 260
 * modules, most of a cold import's time); creating an adapter starts loading them, and every call waits for that
 * load once. The adapter object, its methods and their behaviour are the store's own (store.ts).
 * @module
 * @internal
 */
import type { Kysely } from 'kysely';
import { attachSessionReadNow, sessionReadNowOf } from '../session-read-now.js';
import type { StorageAdapter } from '../types.js';
import type { UserField } from '../../user-fields/definitions.js';
import type { SqlStoreOptions } from './store.js';
import { tableNames } from './tables.js';

const SQL_DIALECTS: ReadonlySet<string> = new Set(['sqlite', 'postgres', 'mysql']);

/** Every method of the SQL store, forwarded by {@link lazySqlStore} (sql-lazy.test.ts compares it with the store). */
export const SQL_STORE_METHODS = [
  'migrate',
  'close',
  'createUser',
  'getUser',
  'getUserByEmail',
  'getUserByAccount',
  'updateUser',
  'deleteUser',
  'listUsers',
  'getSessionVersion',
  'bumpSessionVersion',
  'linkAccount',
  'getAccount',
  'listAccounts',
  'updateAccount',
  'unlinkAccount',
  'createSession',
  'getSessionAndUser',
  'updateSessionExpiry',
  'listSessions',
  'countActiveSessions',
  'deleteSession',
  'deleteUserSessions',
  'deleteExpiredSessions',
  'purgeExpired',
  'createVerificationToken',
  'useVerificationToken',
  'deleteVerificationTokens',
  'createAuthenticator',
  'getAuthenticator',
  'listAuthenticators',
  'updateAuthenticatorCounter',
  'deleteAuthenticator',
] as const satisfies readonly (keyof StorageAdapter)[];

type Call = (...args: unknown[]) => unknown;
const call = (store: StorageAdapter, name: string, args: unknown[]) =>
  ((store as unknown as Record<string, Call>)[name] as Call)(...args);

/**
 * `createSqlStore(options)` behind a dynamic `import()`, started now. Calls made before the store has loaded wait
 * for it; after, they go straight to it (no extra tick, the synchronous session read included). `kysely` is the
 * store's handle once loaded (undefined before); `loadKysely()` waits for it.
 * @throws TypeError at creation for an unknown dialect or a malformed `tablePrefix`.
 */
export function lazySqlStore(options: SqlStoreOptions): StorageAdapter {
  if (!SQL_DIALECTS.has(options.dialect))
    throw new TypeError(`Unknown SQL dialect ${JSON.stringify(options.dialect)}: use 'sqlite', 'postgres' or 'mysql'`);
  tableNames(options.tablePrefix);
  let store: StorageAdapter | undefined;
  let fields: readonly UserField[] | undefined;
  const loading = import('./store.js').then(({ createSqlStore }) => {
    const made = createSqlStore(options);
    if (fields) made.configureUserFields?.(fields);
    return (store = made);
  });
  // A failed load rejects the calls that wait for it, not the process.
  loading.catch(() => {});

  const adapter = {} as Record<string, unknown>;
  for (const name of SQL_STORE_METHODS)
    adapter[name] = (...args: unknown[]) =>
      store ? call(store, name, args) : loading.then((loaded) => call(loaded, name, args));
  adapter.configureUserFields = (given: readonly UserField[]) => {
    fields = given;
    store?.configureUserFields?.(given);
  };
  adapter.loadKysely = (): Promise<Kysely<any>> => loading.then((loaded) => loaded.kysely!);
  Object.defineProperty(adapter, 'kysely', { get: () => store?.kysely, enumerable: true });
  const lazy = adapter as unknown as StorageAdapter;
  attachSessionReadNow(
    lazy,
    (id) => {
      if (!store) return lazy.getSessionAndUser(id);
      const now = sessionReadNowOf(store);
      return now ? now(id) : store.getSessionAndUser(id);
    },
    lazy.getSessionAndUser,
  );
  return lazy;
}
