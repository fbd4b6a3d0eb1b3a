/**
 * What the `username()` tests share: the kit with `username()` on a migrated adapter, browsers that each come from
 * their own address, and running a flow on memory, SQLite and (when reachable) PostgreSQL.
 */
import { afterAll, describe } from 'vitest';
import { postgresSchemas } from '../../../../test-support/pg-schemas.js';
import { createAuth, type CreateAuthOptions } from '../../auth.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { postgresAdapterIn } from '../../storage/sql/sql-test-support.js';
import { createSqliteAdapter } from '../../storage/sql/sqlite.js';
import type { StorageAdapter } from '../../storage/types.js';
import { ORIGIN, SECRET, TestClient } from '../../testing/fixtures.js';
import type { UsernameOptions } from './options.js';
import { username } from './plugin.js';

/** The password the tests sign up with. */
export const PASSWORD = 'correct horse battery';
/** Opens a fresh adapter for one test. */
export type Open = () => Promise<StorageAdapter & { close?: () => Promise<void> }>;

/**
 * `createAuth` with email and password and `username(options)` (plus `overrides`) on the adapter `open` gives,
 * migrated; `client()` makes a browser with its own address (192.0.2.n), `close()` closes the adapter.
 */
export async function usernameAuth(
  open: Open = async () => createMemoryAdapter(),
  options: UsernameOptions = {},
  overrides: Omit<Partial<CreateAuthOptions>, 'plugins'> = {},
) {
  const adapter = await open();
  const auth = createAuth({
    secret: SECRET,
    baseURL: ORIGIN,
    adapter,
    providers: [],
    emailAndPassword: {},
    plugins: [username(options)],
    logger: { error: () => {}, warn: () => {} },
    ...overrides,
  });
  await auth.migrate();
  let n = 0;
  const client = () => {
    const c = new TestClient(auth);
    c.ip = `192.0.2.${++n}`;
    return c;
  };
  return { auth, adapter, client, close: () => adapter.close?.() };
}

/**
 * Runs `flow` on memory, SQLite and, when it is reachable, PostgreSQL in schemas named after `schema` (under
 * CI=true `postgresSchemas` throws when PostgreSQL is down, failing the file).
 */
export async function onEveryAdapter(schema: string, flow: (label: string, open: Open) => void): Promise<void> {
  flow('memory', async () => createMemoryAdapter());
  flow('SQLite', async () => createSqliteAdapter({ filename: ':memory:' }));
  const pg = await postgresSchemas(schema);
  describe.skipIf(!pg.available)('PostgreSQL', () => {
    afterAll(() => pg.dropAll());
    flow('PostgreSQL', async () => postgresAdapterIn(pg, { max: 4 }));
  });
}
