/**
 * What the `multiSession()` tests share: the adapters a session's sign-in time is stored on, browsers that each
 * come from their own address, and reading the account list a browser holds.
 */
import { expect } from 'vitest';
import { mysqlDatabases } from '../../../../test-support/mysql-databases.js';
import { postgresSchemas } from '../../../../test-support/pg-schemas.js';
import { createMemoryAdapter } from '../../storage/memory.js';
import { createMysqlAdapter } from '../../storage/sql/mysql.js';
import { postgresAdapterIn } from '../../storage/sql/sql-test-support.js';
import { createSqliteAdapter } from '../../storage/sql/sqlite.js';
import type { StorageAdapter } from '../../storage/types.js';
import type { TestClient } from '../../testing/fixtures.js';
import type { DeviceSessionInfo } from './index.js';

/** The name of the sealed cookie that holds the browser's set of sessions. */
export const SET_COOKIE = 'framework.multi-session';

/**
 * Memory, SQLite, and PostgreSQL / MySQL when they are reachable, in schemas/databases named after `prefix`.
 * Call `dropAll` in `afterAll`.
 */
export async function multiSessionAdapters(prefix: string) {
  const pg = await postgresSchemas(prefix);
  const my = await mysqlDatabases(prefix);
  const adapters: [string, () => Promise<StorageAdapter>][] = [
    ['memory', async () => createMemoryAdapter()],
    ['sqlite', async () => createSqliteAdapter({ filename: ':memory:' })],
    ...(pg.available ? [['postgres', () => postgresAdapterIn(pg)] as [string, () => Promise<StorageAdapter>]] : []),
    ...(my.available
      ? [
          ['mysql', async () => createMysqlAdapter({ pool: (await my.isolated()).pool })] as [
            string,
            () => Promise<StorageAdapter>,
          ],
        ]
      : []),
  ];
  const dropAll = async () => {
    await pg.dropAll();
    await my.dropAll();
  };
  return { adapters, dropAll };
}

/** Wraps a fixture's `client()` so every browser it makes comes from its own address (198.51.100.n). */
export function clientsOwnAddress(make: () => TestClient): () => TestClient {
  let n = 0;
  return () => {
    const c = make();
    c.ip = `198.51.100.${++n}`;
    return c;
  };
}

/** The accounts the browser holds, as `GET /multi-session/list` answers them (expects 200). */
export const list = async (c: TestClient) => {
  const res = await c.request('/auth/multi-session/list', { headers: { accept: 'application/json' } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { sessions: DeviceSessionInfo[] }).sessions;
};
/** `[email, active]` for each account the browser holds. */
export const emails = async (c: TestClient) => (await list(c)).map((s) => [s.user.email, s.active]);
/** Signs the browser in as `email` and expects 200. */
export const signInAs = async (c: TestClient, email: string) => expect((await c.signIn(email)).status).toBe(200);
/** The session id the browser holds for `email`. */
export const idOf = async (c: TestClient, email: string) =>
  (await list(c)).find((s) => s.user.email === email)!.sessionId;
