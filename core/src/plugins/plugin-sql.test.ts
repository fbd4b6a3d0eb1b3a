/**
 * `adapterStorage` on the SQL adapters of the index, which load Kysely after they are created: a plugin bound
 * before that load gets a storage handle that waits for it, then is the plugin's SQL storage over `adapter.kysely`.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryAdapter } from '../storage/memory.js';
import { createSqliteAdapter } from '../storage/sql/sqlite.js';
import { createMemoryAnonymousStorage } from './anonymous/storage/memory.js';
import { createSqlAnonymousStorage } from './anonymous/storage/sql.js';
import type { AnonymousStorage } from './anonymous/storage/types.js';
import { adapterStorage } from './plugin-sql.js';

const marks = () =>
  adapterStorage<AnonymousStorage>('anonymous()', undefined, {
    sql: (db) => createSqlAnonymousStorage(db),
    memory: createMemoryAnonymousStorage,
  });

describe('adapterStorage', () => {
  it('on a SQL adapter whose Kysely has not loaded yet: calls wait for it and reach the SQL storage', async () => {
    const adapter = createSqliteAdapter({ filename: ':memory:' });
    expect(adapter.kysely).toBeUndefined();
    const { storage, bind } = marks();
    bind(adapter);
    expect((storage as { then?: unknown }).then).toBeUndefined(); // never taken for a promise
    await storage.migrate();
    await storage.mark('guest-1', new Date(0));
    expect(await storage.isAnonymous('guest-1')).toBe(true);
    expect(await storage.isAnonymous('member-1')).toBe(false);
    // The rows are in the adapter's own database.
    const rows = await adapter.kysely!.selectFrom('anonymous_users').select('user_id').execute();
    expect(rows).toEqual([{ user_id: 'guest-1' }]);
    await adapter.close!();
  });

  it('on a SQL adapter whose Kysely has loaded: builds the storage at once', async () => {
    const adapter = createSqliteAdapter({ filename: ':memory:' });
    await adapter.loadKysely!();
    const { storage, bind } = marks();
    bind(adapter);
    expect(storage.mark).toBeTypeOf('function');
    await storage.migrate();
    expect(await storage.isAnonymous('nobody')).toBe(false);
    await adapter.close!();
  });

  it('before bind, and on an adapter that is neither SQL nor memory, refuses', () => {
    const { storage, bind } = marks();
    expect(() => storage.mark).toThrow(/built from the auth adapter by createAuth/);
    const { migrate, getUser } = createMemoryAdapter();
    expect(() => bind({ migrate, getUser } as never)).toThrow(/needs `storage`/);
  });
});
