import { afterEach, describe, expect, it, vi } from 'vitest';
import { bindingKind, createMockEnv } from './create-mock-env.js';
import type { MockDatabase } from './database.js';
import type { MockKVNamespace } from './kv.js';
import type { MockQueue } from './queue.js';

afterEach(() => void vi.useRealTimers());

describe('createMockEnv', () => {
  it('creates each binding on first access, once, by its name', () => {
    const env = createMockEnv({ vars: { API_KEY: 'k' }, bindings: { MAIL: 'queue' } });
    expect(env.API_KEY).toBe('k');
    expect(Object.keys(env)).toEqual(['API_KEY']);
    const kv = env.SESSIONS;
    expect(env.SESSIONS).toBe(kv);
    expect(Object.keys(env)).toEqual(['API_KEY', 'SESSIONS']);
    expect(typeof env.MAIL.send).toBe('function');
    expect(typeof env.DB.prepare).toBe('function');
    expect(env.then).toBeUndefined();
    expect(env.someMethod).toBeUndefined();
  });

  it('names kinds by convention', () => {
    expect(bindingKind('MAIL_QUEUE')).toBe('queue');
    expect(bindingKind('DB')).toBe('database');
    expect(bindingKind('USERS_DB')).toBe('database');
    expect(bindingKind('MAIN_DATABASE')).toBe('database');
    expect(bindingKind('CACHE')).toBe('kv');
  });
});

describe('KV namespace', () => {
  const kv = (): MockKVNamespace => createMockEnv().CACHE;

  it('gets, puts and deletes text, JSON and bytes', async () => {
    const ns = kv();
    expect(await ns.get('missing')).toBeNull();
    await ns.put('a', JSON.stringify({ n: 1 }));
    expect(await ns.get('a')).toBe('{"n":1}');
    expect(await ns.get('a', 'json')).toEqual({ n: 1 });
    expect(await ns.get('a', { type: 'json' })).toEqual({ n: 1 });
    await ns.put('bin', new Uint8Array([104, 105]));
    expect(await ns.get('bin')).toBe('hi');
    expect(new Uint8Array(await ns.get('bin', 'arrayBuffer'))).toEqual(new Uint8Array([104, 105]));
    await ns.delete('a');
    expect(await ns.get('a')).toBeNull();
  });

  it('expires keys after expirationTtl seconds', async () => {
    vi.useFakeTimers();
    const ns = kv();
    await ns.put('short', 'v', { expirationTtl: 60 });
    vi.advanceTimersByTime(59_000);
    expect(await ns.get('short')).toBe('v');
    vi.advanceTimersByTime(1_000);
    expect(await ns.get('short')).toBeNull();
    expect((await ns.list()).keys).toEqual([]);
    await expect(ns.put('bad', 'v', { expirationTtl: 0 })).rejects.toThrow(TypeError);
  });

  it('lists sorted keys by prefix, page by page, with metadata', async () => {
    const ns = kv();
    for (const name of ['user:2', 'user:1', 'post:1', 'user:3']) await ns.put(name, 'x', { metadata: { name } });
    const first = await ns.list({ prefix: 'user:', limit: 2 });
    expect(first.keys.map((k) => k.name)).toEqual(['user:1', 'user:2']);
    expect(first.keys[0]?.metadata).toEqual({ name: 'user:1' });
    expect(first.list_complete).toBe(false);
    const second = await ns.list({ prefix: 'user:', limit: 2, cursor: first.cursor! });
    expect(second).toEqual({ keys: [{ name: 'user:3', metadata: { name: 'user:3' } }], list_complete: true });
  });
});

describe('queue binding', () => {
  it('records sends with spies, copying bodies', async () => {
    const queue: MockQueue = createMockEnv().MAIL_QUEUE;
    const body = { to: 'ada@example.com' };
    await queue.send(body);
    body.to = 'changed';
    await queue.sendBatch([{ body: 2, delaySeconds: 5 }, { body: 3 }]);
    expect(queue.sent).toEqual([
      { body: { to: 'ada@example.com' } },
      { body: 2, options: { delaySeconds: 5 } },
      { body: 3 },
    ]);
    expect(queue.send).toHaveBeenCalledOnce();
    expect(queue.sendBatch).toHaveBeenCalledOnce();
  });
});

describe('database binding', () => {
  it('is an in-memory SQLite with prepare/bind/first/all/run/raw, exec and batch', async () => {
    const db: MockDatabase = createMockEnv().DB;
    await db.exec('CREATE TABLE posts (id INTEGER PRIMARY KEY, title TEXT, draft INTEGER)');
    const inserted = await db.prepare('INSERT INTO posts (title, draft) VALUES (?, ?)').bind('Hello', true).run();
    expect(inserted.meta).toEqual({ changes: 1, last_row_id: 1 });
    expect(await db.prepare('SELECT title FROM posts WHERE id = ?').bind(1).first('title')).toBe('Hello');
    expect(await db.prepare('SELECT * FROM posts WHERE id = ?').bind(99).first()).toBeNull();
    expect((await db.prepare('SELECT id, draft FROM posts').all()).results).toEqual([{ id: 1, draft: 1 }]);
    expect(await db.prepare('SELECT id, title FROM posts').raw()).toEqual([[1, 'Hello']]);
    const insert = db.prepare('INSERT INTO posts (id, title) VALUES (?, ?)');
    await expect(db.batch([insert.bind(2, 'a'), insert.bind(2, 'duplicate')])).rejects.toThrow();
    expect((await db.prepare('SELECT COUNT(*) AS n FROM posts').first<{ n: number }>())?.n).toBe(1);
    await db.close();
  });

  it('gives each env its own database', async () => {
    const a: MockDatabase = createMockEnv().DB;
    const b: MockDatabase = createMockEnv().DB;
    await a.exec('CREATE TABLE only_a (x)');
    await expect(b.prepare('SELECT * FROM only_a').all()).rejects.toThrow(/no such table/);
  });
});
