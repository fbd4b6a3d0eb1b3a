import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runStorageConformance } from '../conformance.js';
import { createSqliteAdapter } from '../sql/sqlite.js';
import { createDrizzleAdapter } from './adapter.js';
import { kitSchema } from './tables.js';

runStorageConformance('drizzle (better-sqlite3)', async () => {
  const client = new Database(':memory:');
  return { adapter: createDrizzleAdapter(drizzle(client)), teardown: async () => void client.close() };
});
runStorageConformance('drizzle (better-sqlite3, tables prefixed kit_)', async () => {
  const client = new Database(':memory:');
  const adapter = createDrizzleAdapter(drizzle(client), { schema: kitSchema('sqlite', 'kit_') });
  return { adapter, teardown: async () => void client.close() };
});

describe('createDrizzleAdapter on better-sqlite3', () => {
  it('shares its tables with createSqliteAdapter: rows written by one are read by the other', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = await mkdtemp(join(tmpdir(), 'auth-drizzle-'));
    try {
      const filename = join(dir, 'auth.db');
      const kysely = createSqliteAdapter({ filename });
      await kysely.migrate();
      const user = await kysely.createUser({ email: 'Shared@Example.com', roles: ['a'] });
      await kysely.close!();
      const client = new Database(filename);
      const adapter = createDrizzleAdapter(drizzle(client));
      await adapter.migrate();
      expect(await adapter.getUserByEmail('shared@example.com')).toStrictEqual(user);
      client.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers the session read synchronously', async () => {
    const { sessionReadNowOf } = await import('../session-read-now.js');
    const client = new Database(':memory:');
    const adapter = createDrizzleAdapter(drizzle(client));
    await adapter.migrate();
    const user = await adapter.createUser({ email: 'now@example.com' });
    const session = { id: 's1', tokenHash: 'h', userId: user.id, expires: new Date(2e12), createdAt: new Date(1e12) };
    await adapter.createSession(session);
    const read = sessionReadNowOf(adapter)!;
    expect(read('s1')).toStrictEqual({ session, user });
    client.close();
  });

  it('refuses a schema without a kit table or column, naming it', () => {
    const client = new Database(':memory:');
    const db = drizzle(client);
    const { authUsers: _, ...noUsers } = kitSchema('sqlite');
    expect(() => createDrizzleAdapter(db, { schema: noUsers as never })).toThrow(/authUsers/);
    expect(() => createDrizzleAdapter(db, { schema: kitSchema('postgres') })).toThrow(/not a sqlite table/);
    client.close();
  });

  it('counts active sessions exactly, in slices of the expiry index as the SQLite adapter does', async () => {
    const statements: string[] = [];
    const client = new Database(':memory:', { verbose: (message) => statements.push(String(message)) });
    const adapter = createDrizzleAdapter(drizzle(client));
    await adapter.migrate();
    const user = await adapter.createUser({ email: 'count@example.com' });
    const now = Date.now();
    for (const [id, expires] of [
      ['live1', now + 60_000],
      ['live2', now + 120_000],
      ['gone', now - 1],
    ] as const)
      await adapter.createSession({
        id,
        tokenHash: id,
        userId: user.id,
        expires: new Date(expires),
        createdAt: new Date(),
      });
    statements.length = 0;
    expect(await adapter.countActiveSessions!(new Date(now))).toBe(2);
    // The sliced count's probe for the slice's last index entry (sql/sliced-count.ts), then the count of the rest.
    expect(statements.some((s) => /order by expires, rowid limit 1 offset/i.test(s))).toBe(true);
    client.close();
  });
});
