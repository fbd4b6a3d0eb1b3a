import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import Database from 'better-sqlite3';
import { runStorageConformance } from '../conformance.js';
import { sessionReadNowOf } from '../session-read-now.js';
import type { StorageAdapter } from '../types.js';
import { resolveUserFields } from '../../user-fields/definitions.js';
import { cachedRowRead } from './sqlite-read-cache.js';
import { createSqliteAdapter } from './sqlite.js';

const root = await mkdtemp(join(tmpdir(), 'framework-sqlite-read-cache-'));
afterAll(() => rm(root, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(root, `db-${++files}.db`);

// The cache changes nothing the contract can see, with other connections seen at once.
runStorageConformance('sqlite (session read cache, other connections at once)', async () => ({
  adapter: createSqliteAdapter({ filename: freshFile(), sessionReadCache: { otherConnectionsMs: 0 } }),
}));

/** A migrated adapter on a new file with one user and one session `s1`. */
async function withSession(options: Parameters<typeof createSqliteAdapter>[0]['sessionReadCache'] = undefined) {
  const filename = freshFile();
  const adapter = createSqliteAdapter({ filename, ...(options === undefined ? {} : { sessionReadCache: options }) });
  await adapter.migrate();
  const user = await adapter.createUser({ email: 'ada@example.com', name: 'Ada' });
  await adapter.createSession({
    id: 's1',
    tokenHash: 'h',
    userId: user.id,
    expires: new Date(Date.now() + 3_600_000),
    createdAt: new Date(),
  });
  return { filename, adapter, user };
}

/** The synchronous session read every request makes. */
function readNow(adapter: StorageAdapter, id: string) {
  const read = sessionReadNowOf(adapter);
  if (!read) throw new Error('no synchronous session read');
  const found = read(id);
  if (found instanceof Promise) throw new Error('the read did not answer synchronously');
  return found;
}

describe('SQLite session read cache, through the adapter', () => {
  it('sees every write through the adapter, its plugins and its Kysely at once', async () => {
    const { adapter, user } = await withSession();
    expect(readNow(adapter, 's1')?.user.name).toBe('Ada');
    expect(readNow(adapter, 's1')?.user.name).toBe('Ada');
    await adapter.updateUser(user.id, { name: 'Grace' });
    expect(readNow(adapter, 's1')?.user.name).toBe('Grace');
    // The app's own query on the adapter's connection (a plugin table, a ban column: any write).
    const db = await adapter.loadKysely!();
    await sql`UPDATE auth_users SET name = 'Edsger' WHERE id = ${user.id}`.execute(db);
    expect(readNow(adapter, 's1')?.user.name).toBe('Edsger');
    await adapter.deleteSession('s1');
    expect(readNow(adapter, 's1')).toBeNull();
    await adapter.close?.();
  });

  it('returns a fresh user and session on every read, so a caller changing one cannot reach the next', async () => {
    const { adapter } = await withSession();
    const first = readNow(adapter, 's1')!;
    first.user.name = 'changed by a request';
    first.session.expires.setTime(0);
    const second = readNow(adapter, 's1')!;
    expect(second.user.name).toBe('Ada');
    expect(second.session.expires.getTime()).toBeGreaterThan(Date.now());
    await adapter.close?.();
  });

  it('sees a commit from another connection (another process, the CLI) when told to look every time', async () => {
    const { filename, adapter, user } = await withSession({ otherConnectionsMs: 0 });
    expect(readNow(adapter, 's1')?.user.name).toBe('Ada');
    const other = new Database(filename);
    other.prepare('UPDATE auth_users SET name = ? WHERE id = ?').run('Barbara', user.id);
    expect(readNow(adapter, 's1')?.user.name).toBe('Barbara');
    other.prepare('DELETE FROM auth_sessions WHERE id = ?').run('s1');
    expect(readNow(adapter, 's1')).toBeNull();
    other.close();
    await adapter.close?.();
  });

  it('keeps nothing across close(): a revoke made while closed is seen by the next read', async () => {
    const { filename, adapter } = await withSession();
    expect(readNow(adapter, 's1')).not.toBeNull();
    await adapter.close?.();
    const other = new Database(filename);
    other.prepare('DELETE FROM auth_sessions WHERE id = ?').run('s1');
    other.close();
    // The next call opens the file again, with a new cache.
    expect(await adapter.getSessionAndUser('s1')).toBeNull();
    expect(readNow(adapter, 's1')).toBeNull();
    await adapter.close?.();
  });

  it('reads the table on every request with sessionReadCache: false', async () => {
    const { filename, adapter, user } = await withSession(false);
    expect(readNow(adapter, 's1')?.user.name).toBe('Ada');
    const other = new Database(filename);
    other.prepare('UPDATE auth_users SET name = ? WHERE id = ?').run('Barbara', user.id);
    other.close();
    expect(readNow(adapter, 's1')?.user.name).toBe('Barbara');
    await adapter.close?.();
  });

  it('rejects a malformed option at creation', () => {
    expect(() => createSqliteAdapter({ filename: freshFile(), sessionReadCache: { maxEntries: -1 } })).toThrow(
      /sessionReadCache.maxEntries/,
    );
    expect(() => createSqliteAdapter({ filename: freshFile(), sessionReadCache: { otherConnectionsMs: NaN } })).toThrow(
      /otherConnectionsMs/,
    );
    expect(() => createSqliteAdapter({ filename: freshFile(), sessionReadCache: 'on' as never })).toThrow(
      /sessionReadCache must be/,
    );
  });
});

describe('SQLite session read cache, across schema changes', () => {
  const plan = resolveUserFields({ plan: { type: 'string', defaultValue: 'pro' } });

  for (const cache of [undefined, false] as const)
    it(`returns a column migrate() adds after sessions were read (cache ${cache === false ? 'off' : 'on'})`, async () => {
      const { adapter } = await withSession(cache);
      expect(readNow(adapter, 's1')?.user.name).toBe('Ada');
      // A custom field configured later: migrate() adds its column (with its default), a schema change only.
      adapter.configureUserFields!(plan);
      await adapter.migrate();
      expect((readNow(adapter, 's1')?.user as unknown as { plan: unknown }).plan).toBe('pro');
      await adapter.close?.();
    });

  it('sees DDL run through the adapter at once: a table dropped and made again', async () => {
    const { adapter } = await withSession();
    expect(readNow(adapter, 's1')).not.toBeNull();
    const db = await adapter.loadKysely!();
    // No row is deleted (total_changes() stays): only the schema changes.
    await sql`ALTER TABLE auth_sessions RENAME TO auth_sessions_old`.execute(db);
    await sql`CREATE TABLE auth_sessions AS SELECT * FROM auth_sessions_old WHERE 0`.execute(db);
    expect(readNow(adapter, 's1')).toBeNull();
    await adapter.close?.();
  });

  it('names a column right after a schema change rolled back in a transaction and another one made', async () => {
    const { adapter } = await withSession();
    adapter.configureUserFields!(plan);
    const db = await adapter.loadKysely!();
    const failed = await db
      .transaction()
      .execute(async (trx) => {
        await sql`ALTER TABLE auth_users ADD COLUMN rolled_back TEXT DEFAULT 'gone'`.execute(trx);
        // Read while the column exists: schema_version is one more here, and again after the next change.
        expect(readNow(adapter, 's1')).not.toBeNull();
        throw new Error('roll back');
      })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    await adapter.migrate();
    const user = readNow(adapter, 's1')?.user as unknown as Record<string, unknown>;
    expect(user.plan).toBe('pro');
    await adapter.close?.();
  });

  /** Fields `legacy`, `plan` (set by the app) and `nickname` (set by the user), in that column order. */
  const threeFields = resolveUserFields({
    legacy: { type: 'string' },
    plan: { type: 'string', input: false },
    nickname: { type: 'string' },
  });
  type Fields = { plan: unknown; nickname: unknown };

  it("names every value by its own column after another connection's DROP and ADD COLUMN (same count)", async () => {
    const filename = freshFile();
    const adapter = createSqliteAdapter({ filename, sessionReadCache: { otherConnectionsMs: 0 } });
    adapter.configureUserFields!(threeFields);
    await adapter.migrate();
    const user = await adapter.createUser({ email: 'eve@example.com', plan: 'free', nickname: 'enterprise' } as never);
    await adapter.createSession({
      id: 's1',
      tokenHash: 'h',
      userId: user.id,
      expires: new Date(Date.now() + 3_600_000),
      createdAt: new Date(),
    });
    expect((readNow(adapter, 's1')?.user as unknown as Fields).plan).toBe('free');
    // Another process (a deploy's migration) drops a column before `plan` and adds one: the row keeps its length.
    const other = new Database(filename);
    other.exec('ALTER TABLE auth_users DROP COLUMN legacy; ALTER TABLE auth_users ADD COLUMN extra TEXT');
    other.close();
    const found = readNow(adapter, 's1')?.user as unknown as Fields;
    expect(found.plan).toBe('free');
    expect(found.nickname).toBe('enterprise');
    await adapter.close?.();
  });

  it("names every value by its own column after another connection's DROP and ADD COLUMN, cache off", async () => {
    const filename = freshFile();
    const adapter = createSqliteAdapter({ filename, sessionReadCache: false });
    adapter.configureUserFields!(threeFields);
    await adapter.migrate();
    const user = await adapter.createUser({ email: 'eve@example.com', plan: 'free', nickname: 'enterprise' } as never);
    await adapter.createSession({
      id: 's1',
      tokenHash: 'h',
      userId: user.id,
      expires: new Date(Date.now() + 3_600_000),
      createdAt: new Date(),
    });
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      expect((readNow(adapter, 's1')?.user as unknown as Fields).plan).toBe('free');
      const other = new Database(filename);
      other.exec('ALTER TABLE auth_users DROP COLUMN legacy; ALTER TABLE auth_users ADD COLUMN extra TEXT');
      other.close();
      // The read looks for other connections' schema changes at most once a millisecond.
      vi.advanceTimersByTime(1);
      const found = readNow(adapter, 's1')?.user as unknown as Fields;
      expect(found.plan).toBe('free');
      expect(found.nickname).toBe('enterprise');
    } finally {
      vi.useRealTimers();
    }
    await adapter.close?.();
  });

  it('names every value by its own column after DROP and ADD COLUMN through the adapter, cache off', async () => {
    const adapter = createSqliteAdapter({ filename: freshFile(), sessionReadCache: false });
    adapter.configureUserFields!(threeFields);
    await adapter.migrate();
    const user = await adapter.createUser({ email: 'eve@example.com', plan: 'free', nickname: 'enterprise' } as never);
    await adapter.createSession({
      id: 's1',
      tokenHash: 'h',
      userId: user.id,
      expires: new Date(Date.now() + 3_600_000),
      createdAt: new Date(),
    });
    expect((readNow(adapter, 's1')?.user as unknown as Fields).plan).toBe('free');
    const db = await adapter.loadKysely!();
    await sql`ALTER TABLE auth_users DROP COLUMN legacy`.execute(db);
    await sql`ALTER TABLE auth_users ADD COLUMN extra TEXT`.execute(db);
    expect((readNow(adapter, 's1')?.user as unknown as Fields).plan).toBe('free');
    await adapter.close?.();
  });
});

describe('cachedRowRead over two real connections', () => {
  /** Connection `a` reads through the cache on a clock the test moves; connection `b` is another writer. */
  function twoConnections(maxEntries?: number) {
    const filename = freshFile();
    const a = new Database(filename);
    a.pragma('journal_mode = WAL');
    a.exec('CREATE TABLE t (id TEXT PRIMARY KEY, v TEXT)');
    a.prepare('INSERT INTO t VALUES (?, ?), (?, ?)').run('k1', 'one', 'k2', 'two');
    const b = new Database(filename);
    const statement = a.prepare('SELECT id, v FROM t WHERE id = ?');
    let reads = 0;
    let clock = 0;
    const read = cachedRowRead(
      (params) => {
        reads++;
        return statement.get(...params) as { id: string; v: string } | undefined;
      },
      {
        changes: () => (a.prepare('SELECT total_changes()').raw(true).get() as number[])[0]!,
        dataVersion: a.prepare('PRAGMA data_version').raw(true),
        inTransaction: () => a.inTransaction,
      },
      { otherConnectionsMs: 5, now: () => clock, ...(maxEntries === undefined ? {} : { maxEntries }) },
    );
    return {
      a,
      b,
      read: (id: string) => read([id])?.v,
      reads: () => reads,
      advance: (ms: number) => (clock += ms),
      close: () => (a.close(), b.close()),
    };
  }

  it('answers a row read before from memory until a write on its connection', () => {
    const c = twoConnections();
    expect(c.read('k1')).toBe('one');
    expect(c.read('k1')).toBe('one');
    expect(c.reads()).toBe(1);
    c.a.prepare('UPDATE t SET v = ? WHERE id = ?').run('uno', 'k1');
    expect(c.read('k1')).toBe('uno');
    expect(c.reads()).toBe(2);
    // A write to any row empties it: the cache cannot tell which rows a statement touched.
    c.a.prepare('UPDATE t SET v = ? WHERE id = ?').run('dos', 'k2');
    expect(c.read('k1')).toBe('uno');
    expect(c.reads()).toBe(3);
    c.close();
  });

  it("sees another connection's commit once otherConnectionsMs has passed, not before", () => {
    const c = twoConnections();
    expect(c.read('k1')).toBe('one');
    c.b.prepare('UPDATE t SET v = ? WHERE id = ?').run('eins', 'k1');
    c.advance(4);
    // Within the documented window the row read before may still answer.
    expect(c.read('k1')).toBe('one');
    c.advance(1);
    expect(c.read('k1')).toBe('eins');
    c.close();
  });

  it('never caches a row missing, nor inside a transaction that may roll back', () => {
    const c = twoConnections();
    expect(c.read('k3')).toBeUndefined();
    c.b.prepare('INSERT INTO t VALUES (?, ?)').run('k3', 'three');
    // No clock move: a row missing was not cached, so the new one is found at once.
    expect(c.read('k3')).toBe('three');
    expect(c.read('k1')).toBe('one');
    c.a.exec('BEGIN');
    c.a.prepare('UPDATE t SET v = ? WHERE id = ?').run('uncommitted', 'k1');
    expect(c.read('k1')).toBe('uncommitted');
    c.a.exec('ROLLBACK');
    expect(c.read('k1')).toBe('one');
    c.close();
  });

  it('keeps at most maxEntries rows, dropping the oldest', () => {
    const c = twoConnections(1);
    c.read('k1');
    c.read('k2');
    const before = c.reads();
    c.read('k2');
    expect(c.reads()).toBe(before);
    c.read('k1');
    expect(c.reads()).toBe(before + 1);
    c.close();
  });
});
