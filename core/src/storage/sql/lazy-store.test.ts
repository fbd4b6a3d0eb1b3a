/**
 * The SQL adapters load Kysely and the store after they are created (lazy-store.ts): the adapter answers as the
 * store does, calls made before the load wait for it, user fields configured before it apply, and once loaded the
 * session read is synchronous again on SQLite.
 */
import { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { sessionReadNowOf } from '../session-read-now.js';
import { resolveUserFields } from '../../user-fields/definitions.js';
import { createSqlAdapter } from './adapter.js';
import { SQL_STORE_METHODS } from './lazy-store.js';
import { createSqliteAdapter } from './sqlite.js';
import { createSqlStore } from './store.js';

const fresh = () => createSqliteAdapter({ filename: ':memory:' });

describe('SQL adapters created before Kysely has loaded', () => {
  it('forward every method of the store (the list cannot drift from store.ts)', () => {
    const store = createSqlStore({ dialect: 'sqlite', open: () => Promise.reject(new Error('not opened')) });
    const methods = Object.keys(store).filter(
      (key) => typeof (store as unknown as Record<string, unknown>)[key] === 'function',
    );
    expect([...SQL_STORE_METHODS, 'configureUserFields', 'loadKysely'].sort()).toEqual(
      [...methods, 'loadKysely'].sort(),
    );
    const adapter = fresh();
    for (const method of methods) expect(adapter, method).toHaveProperty(method, expect.any(Function));
  });

  it('answer calls made at once, and give plugins their Kysely through loadKysely() (kysely is set after)', async () => {
    const adapter = fresh();
    expect(adapter.kysely).toBeUndefined();
    const migrated = adapter.migrate();
    const db = await adapter.loadKysely!();
    expect(db).toBeInstanceOf(Kysely);
    expect(adapter.kysely).toBe(db);
    await migrated;
    const user = await adapter.createUser({ email: 'early@example.com' });
    expect(await adapter.getUserByEmail('EARLY@example.com')).toMatchObject({ id: user.id });
    await adapter.close!();
  });

  it('apply user fields configured before the load', async () => {
    const adapter = fresh();
    adapter.configureUserFields!(resolveUserFields({ plan: { type: 'string', defaultValue: 'free' } }));
    await adapter.migrate();
    const user = await adapter.createUser({ email: 'fields@example.com' });
    expect(await adapter.getUser(user.id)).toMatchObject({ plan: 'free' });
    await adapter.close!();
  });

  it('read a session synchronously on SQLite once loaded and open', async () => {
    const adapter = fresh();
    const readNow = sessionReadNowOf(adapter)!;
    expect(readNow).toBeTypeOf('function');
    const early = readNow('none');
    expect(early).toBeInstanceOf(Promise); // not loaded yet: the store's async read (no table before migrate())
    await expect(early).rejects.toThrow(/no such table/);
    await adapter.migrate();
    const user = await adapter.createUser({ email: 'now@example.com' });
    const expires = new Date(Date.now() + 60_000);
    await adapter.createSession({ id: 's-now', tokenHash: 'h', userId: user.id, expires, createdAt: new Date() });
    const found = readNow('s-now');
    expect(found).not.toBeInstanceOf(Promise);
    expect(found).toMatchObject({ session: { id: 's-now' }, user: { id: user.id } });
    await adapter.close!();
  });

  it('refuse an unknown dialect or a malformed tablePrefix at creation', () => {
    const db = {} as Kysely<any>;
    expect(() => createSqlAdapter({ db, dialect: 'oracle' as never })).toThrow(/Unknown SQL dialect "oracle"/);
    expect(() => createSqliteAdapter({ filename: ':memory:', tablePrefix: '1-bad' })).toThrow(TypeError);
  });
});
