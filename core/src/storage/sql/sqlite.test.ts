import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { runStorageConformance } from '../conformance.js';
import { createSqliteAdapter } from './sqlite.js';

const root = await mkdtemp(join(tmpdir(), 'auth-sqlite-'));
afterAll(() => rm(root, { recursive: true, force: true }));

let files = 0;
/** A fresh database path in a folder that does not exist yet. */
const freshFile = () => join(root, `run-${++files}`, 'nested', 'auth.db');

runStorageConformance('sqlite (file)', async () => ({ adapter: createSqliteAdapter({ filename: freshFile() }) }));
runStorageConformance('sqlite (:memory:)', async () => ({ adapter: createSqliteAdapter({ filename: ':memory:' }) }));
runStorageConformance('sqlite (custom tablePrefix)', async () => ({
  adapter: createSqliteAdapter({ filename: ':memory:', tablePrefix: 'kit_' }),
}));

describe('createSqliteAdapter', () => {
  it('reopens after a close() that raced the first open, and reads the session through the new connection', async () => {
    const filename = freshFile();
    const adapter = createSqliteAdapter({ filename });
    await adapter.migrate();
    const user = await adapter.createUser({ email: 'race@example.com' });
    const expires = new Date(Date.now() + 60_000);
    await adapter.createSession({ id: 'race-1', tokenHash: 'h', userId: user.id, expires, createdAt: new Date() });
    await adapter.close!();
    // The read starts opening the file again; close() abandons that open.
    const reading = adapter.getSessionAndUser('race-1');
    for (let tick = 0; tick < 10; tick++) await null;
    await adapter.close!();
    await reading.catch(() => null);
    const found = await adapter.getSessionAndUser('race-1');
    expect(found?.user.email).toBe('race@example.com');
    await adapter.close!();
  });

  it('keeps data across closing and reopening the file', async () => {
    const filename = freshFile();
    const first = createSqliteAdapter({ filename });
    await first.migrate();
    const user = await first.createUser({ email: 'persist@example.com', roles: ['a'] });
    const session = await first.createSession({
      id: 's1',
      tokenHash: 'h',
      userId: user.id,
      expires: new Date(2e12),
      createdAt: new Date(1e12),
    });
    await first.close?.();

    const second = createSqliteAdapter({ filename });
    await second.migrate();
    expect(await second.getSessionAndUser('s1')).toStrictEqual({ session, user });
    await second.close?.();
  });

  it('opens nothing before the first call, creates the parent folder, and uses WAL', async () => {
    const filename = freshFile();
    const adapter = createSqliteAdapter({ filename });
    await expect(stat(filename)).rejects.toMatchObject({ code: 'ENOENT' });
    await adapter.migrate();
    expect((await stat(filename)).isFile()).toBe(true);
    expect((await stat(`${filename}-wal`)).isFile()).toBe(true);
    await adapter.close?.();
  });

  it('reads through a 64 MiB page cache and a 256 MiB memory map unless told otherwise', async () => {
    const pragmas = async (adapter: ReturnType<typeof createSqliteAdapter>) => {
      await adapter.migrate();
      const db = (await adapter.loadKysely!())!;
      const cache = await sql<{ cache_size: number }>`pragma cache_size`.execute(db);
      const mmap = await sql<{ mmap_size: number }>`pragma mmap_size`.execute(db);
      await adapter.close?.();
      return { cacheSize: cache.rows[0]?.cache_size, mmapSize: mmap.rows[0]?.mmap_size };
    };
    // A negative cache_size is in KiB.
    expect(await pragmas(createSqliteAdapter({ filename: freshFile() }))).toStrictEqual({
      cacheSize: -65_536,
      mmapSize: 268_435_456,
    });
    expect(
      await pragmas(createSqliteAdapter({ filename: freshFile(), cacheSizeKiB: 2_000, mmapSizeBytes: 0 })),
    ).toStrictEqual({ cacheSize: -2_000, mmapSize: 0 });
    for (const bad of [-1, 1.5, Number.NaN])
      for (const option of ['cacheSizeKiB', 'mmapSizeBytes'])
        expect(() => createSqliteAdapter({ filename: ':memory:', [option]: bad })).toThrow(TypeError);
  });

  it('commits without an fsync (synchronous = NORMAL, in WAL mode) unless told synchronous: full', async () => {
    const pragmas = async (adapter: ReturnType<typeof createSqliteAdapter>) => {
      await adapter.migrate();
      const db = (await adapter.loadKysely!())!;
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db);
      const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(db);
      await adapter.close?.();
      return { journalMode: mode.rows[0]?.journal_mode, synchronous: sync.rows[0]?.synchronous };
    };
    // PRAGMA synchronous reads back 1 for NORMAL, 2 for FULL.
    expect(await pragmas(createSqliteAdapter({ filename: freshFile() }))).toStrictEqual({
      journalMode: 'wal',
      synchronous: 1,
    });
    expect(await pragmas(createSqliteAdapter({ filename: freshFile(), synchronous: 'normal' }))).toStrictEqual({
      journalMode: 'wal',
      synchronous: 1,
    });
    expect(await pragmas(createSqliteAdapter({ filename: freshFile(), synchronous: 'full' }))).toStrictEqual({
      journalMode: 'wal',
      synchronous: 2,
    });
    for (const bad of ['off', 'FULL', 'extra'])
      expect(() => createSqliteAdapter({ filename: ':memory:', synchronous: bad as 'full' })).toThrow(TypeError);
  });

  it('cascades through foreign keys, too', async () => {
    const { default: Database } = await import('better-sqlite3');
    const filename = freshFile();
    const adapter = createSqliteAdapter({ filename });
    await adapter.migrate();
    const user = await adapter.createUser({});
    await adapter.createSession({
      id: 's',
      tokenHash: 'h',
      userId: user.id,
      expires: new Date(),
      createdAt: new Date(),
    });
    await adapter.close?.();
    const raw = new Database(filename);
    raw.pragma('foreign_keys = ON');
    raw.prepare('DELETE FROM auth_users WHERE id = ?').run(user.id);
    expect(raw.prepare('SELECT count(*) AS n FROM auth_sessions').get()).toStrictEqual({ n: 0 });
    raw.close();
  });

  /** A migrated database file turned back into an older one by `downgrade` (SQL), then upgraded by a new adapter. */
  async function upgradedFrom(downgrade: string) {
    const { default: Database } = await import('better-sqlite3');
    const filename = freshFile();
    const first = createSqliteAdapter({ filename });
    await first.migrate();
    await first.close?.();
    const raw = new Database(filename);
    raw.exec(downgrade);
    raw.close();
    const upgraded = createSqliteAdapter({ filename });
    await upgraded.migrate();
    return upgraded;
  }
  const WITHOUT_METADATA = `ALTER TABLE auth_sessions DROP COLUMN user_agent; ALTER TABLE auth_sessions DROP COLUMN ip; ALTER TABLE auth_sessions DROP COLUMN last_active_at; ALTER TABLE auth_sessions DROP COLUMN impersonated_by;
      DELETE FROM auth_migrations WHERE name >= '0003'; -- later migrations run again: they are idempotent
      INSERT INTO auth_users (id, email, email_normalized) VALUES ('old-user', 'old@example.com', 'old@example.com');`;

  it('upgrades a database made before session versions in place (migration 0002)', async () => {
    // Turn the file back into a 0001-only database holding one user.
    const upgraded =
      await upgradedFrom(`DROP INDEX auth_verification_tokens_expires_idx; ALTER TABLE auth_users DROP COLUMN session_version;
      DELETE FROM auth_migrations WHERE name = '0002_session_version'; ${WITHOUT_METADATA}`);
    expect(await upgraded.getSessionVersion('old-user')).toBe(0);
    expect(await upgraded.bumpSessionVersion('old-user')).toBe(1);
    expect((await upgraded.getUser('old-user'))?.email).toBe('old@example.com');
    await upgraded.close?.();
  });

  it('upgrades a database made before session metadata in place (migration 0003)', async () => {
    const upgraded = await upgradedFrom(`${WITHOUT_METADATA}
      INSERT INTO auth_sessions (id, token_hash, user_id, expires, created_at) VALUES ('old-session', 'h', 'old-user', 4102444800000, 1000);`);
    const old = {
      id: 'old-session',
      tokenHash: 'h',
      userId: 'old-user',
      expires: new Date(4102444800000),
      createdAt: new Date(1000),
    };
    expect((await upgraded.getSessionAndUser('old-session'))?.session).toStrictEqual(old);
    expect(await upgraded.updateSessionExpiry('old-session', old.expires, new Date(2000))).toStrictEqual({
      ...old,
      lastActiveAt: new Date(2000),
    });
    expect(await upgraded.listSessions('old-user')).toStrictEqual([{ ...old, lastActiveAt: new Date(2000) }]);
    await upgraded.close?.();
  });

  it('rejects a malformed tablePrefix at creation', () => {
    expect(() => createSqliteAdapter({ filename: ':memory:', tablePrefix: 'bad-prefix; drop' })).toThrow(TypeError);
  });
});
