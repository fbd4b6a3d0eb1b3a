import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createAuth } from '../auth.js';
import { delegateAdapter } from './delegate.js';
import { encryptAccountTokens } from './encrypted-tokens.js';
import { attachSessionReadNow, sessionReadNowOf } from './session-read-now.js';
import { withExplainedErrors, explainSqliteError } from './sql/explain-errors.js';
import { createSqliteAdapter, type SqliteAdapterOptions } from './sql/sqlite.js';
import { createMemoryAdapter } from './memory.js';
import type { StorageAdapter } from './types.js';

const root = await mkdtemp(join(tmpdir(), 'auth-read-now-'));
afterAll(() => rm(root, { recursive: true, force: true }));
let files = 0;

async function signedIn(
  wrap: (adapter: StorageAdapter) => StorageAdapter = (a) => a,
  options: Omit<SqliteAdapterOptions, 'filename'> = {},
) {
  const filename = join(root, `db-${++files}.sqlite`);
  const adapter = createSqliteAdapter({ filename, ...options });
  await adapter.migrate();
  const user = await adapter.createUser({ email: 'now@example.com', name: 'Now' });
  const auth = createAuth({
    adapter: wrap(adapter),
    secret: 'read-now-secret-read-now-secret-0001',
    session: { strategy: 'database' },
    providers: [],
  });
  const { value } = await auth.createSession(user.id);
  const request = () => new Request('http://localhost/', { headers: { cookie: `framework.session-token=${value}` } });
  return { adapter, auth, user, request, filename, id: value.split('.')[0]! };
}

describe('the synchronous session read', () => {
  it('SQLite answers as getSessionAndUser does, without a promise once the file is open', async () => {
    const adapter = createSqliteAdapter({ filename: join(root, `db-${++files}.sqlite`) });
    await adapter.migrate();
    const user = await adapter.createUser({ email: 'a@example.com' });
    const expires = new Date(Date.now() + 60_000);
    await adapter.createSession({ id: 's-1', tokenHash: 'h', userId: user.id, expires, createdAt: new Date() });
    await adapter.close!();
    // Closed: the read opens the file again, so it answers with a promise.
    const reopening = sessionReadNowOf(adapter)!('s-1');
    expect(reopening).toBeInstanceOf(Promise);
    expect((await reopening)?.user.email).toBe('a@example.com');
    const now = sessionReadNowOf(adapter)!('s-1');
    expect(now).not.toBeInstanceOf(Promise);
    expect(now).toEqual(await adapter.getSessionAndUser('s-1'));
    expect(sessionReadNowOf(adapter)!('s-unknown')).toBeNull();
    await adapter.close!();
  });

  it('makes the database strategy answer openScope without a promise, with the user', async () => {
    const { auth, request, adapter } = await signedIn();
    await auth.getSession(request());
    const scope = auth.openScope(request());
    expect(scope).not.toBeInstanceOf(Promise);
    expect((scope as Awaited<typeof scope>).user?.email).toBe('now@example.com');
    await adapter.close!();
  });

  it('is kept by the account-token encryption wrapper, which leaves getSessionAndUser alone', async () => {
    const { auth, request, adapter } = await signedIn((a) => encryptAccountTokens(a, ['k'.repeat(32)]));
    expect(sessionReadNowOf(auth.adapter!)).toBeDefined();
    await auth.getSession(request());
    expect(auth.openScope(request())).not.toBeInstanceOf(Promise);
    await adapter.close!();
  });

  // Each wrapper replaces getSessionAndUser with one that finds nothing: the strategy must call it (signed out),
  // not the inner adapter's synchronous read (signed in).
  const refuse = async () => null;
  const wrappers: Array<[string, (a: StorageAdapter) => StorageAdapter]> = [
    ['a spread object', (a) => ({ ...a, getSessionAndUser: refuse })],
    [
      'a Proxy',
      (a) =>
        new Proxy(a, {
          get: (t, p) => (p === 'getSessionAndUser' ? refuse : Reflect.get(t, p, t)),
        }),
    ],
    ['delegateAdapter with an override', (a) => delegateAdapter(a, { getSessionAndUser: refuse })],
    [
      'delegateAdapter over one with an override',
      (a) => encryptAccountTokens(delegateAdapter(a, { getSessionAndUser: refuse }), ['k'.repeat(32)]),
    ],
  ];
  for (const [name, wrap] of wrappers) {
    it(`is not used through ${name} that replaces getSessionAndUser`, async () => {
      const { auth, request, adapter } = await signedIn(wrap);
      expect(sessionReadNowOf(auth.adapter!)).toBeUndefined();
      const state = await auth.getSession(request());
      expect(state.user).toBeNull();
      await adapter.close!();
    });
  }

  it('a storage failure in the synchronous read is a rejected promise, never a synchronous throw', async () => {
    // Other connections' writes seen at every read (by default within 1 ms, so a read in the same ms is cached).
    const { auth, request, adapter, filename } = await signedIn((a) => a, {
      sessionReadCache: { otherConnectionsMs: 0 },
    });
    await auth.getSession(request());
    const other = new Database(filename);
    other.exec('DROP TABLE auth_sessions');
    other.close();
    const reading = auth.getSession(request());
    expect(reading).toBeInstanceOf(Promise);
    await expect(reading).rejects.toThrow(/no such table/);
    const opening = auth.openScope(request());
    expect(opening).toBeInstanceOf(Promise);
    await expect(opening).rejects.toThrow(/no such table/);
    await adapter.close!();
  });

  it('keeps the storage-error explanations on the synchronous read', () => {
    const inner = createMemoryAdapter();
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    attachSessionReadNow(
      inner,
      () => {
        throw busy;
      },
      inner.getSessionAndUser,
    );
    const explained = withExplainedErrors(inner, (error) => explainSqliteError(error, '/data/auth.db'));
    const readNow = sessionReadNowOf(explained)!;
    expect(readNow).toBeDefined();
    expect(() => readNow('x')).toThrow(expect.objectContaining({ code: 'STORAGE_UNAVAILABLE', cause: busy }));
  });

  it('still waits for adapters written in JavaScript: thenables, and writes that return no promise', async () => {
    const memory = createMemoryAdapter();
    const user = await memory.createUser({ email: 'js@example.com' });
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const stamps: Date[] = [];
    const adapter: StorageAdapter = {
      ...memory,
      // A driver's own thenable rather than a native Promise.
      getSessionAndUser: ((id: string) => ({
        then: (ok: (v: unknown) => void, fail: (e: unknown) => void) => memory.getSessionAndUser(id).then(ok, fail),
      })) as never,
      // A synchronous write, declared asynchronous.
      updateSessionExpiry: ((_id: string, _expires: Date, at: Date) => {
        stamps.push(at);
      }) as never,
    };
    const auth = createAuth({
      adapter,
      secret: 'read-now-secret-read-now-secret-0001',
      session: { strategy: 'database' },
      providers: [],
    });
    const { value } = await auth.createSession(user.id);
    const id = value.split('.')[0]!;
    const stored = (await memory.getSessionAndUser(id))!.session;
    await memory.deleteSession(id);
    await memory.createSession({ ...stored, createdAt: twoHoursAgo, lastActiveAt: twoHoursAgo });
    const state = await auth.getSession(
      new Request('http://localhost/', { headers: { cookie: `framework.session-token=${value}` } }),
    );
    expect(state.user?.email).toBe('js@example.com');
    expect(stamps).toHaveLength(1);
  });
});
