/**
 * The SQLite adapter's WAL checkpoints run in a worker thread: the worker copies committed pages into the
 * database file, the adapter's connection does not checkpoint by itself while it runs, a worker that cannot
 * start hands checkpoints back, and `close()` stops the worker (also in a process with nothing else to run,
 * sqlite-close.fixture.mjs).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from './sqlite-checkpointer.js';
import { createSqliteAdapter } from './sqlite.js';

let dir: string | undefined;
const folder = async () => (dir = await mkdtemp(join(tmpdir(), 'auth-checkpoint-')));
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('SQLite checkpoints in a worker thread', () => {
  it('copies the committed pages of the -wal file into the database file', async () => {
    const file = join(await folder(), 'wal.db');
    const database = new Database(file);
    database.pragma('journal_mode = WAL');
    database.pragma('wal_autocheckpoint = 0');
    database.exec('create table t (x text)');
    const insert = database.prepare('insert into t values (?)');
    for (let i = 0; i < 200; i++) insert.run('x'.repeat(1_000));
    const done = new Promise<{ log: number; checkpointed: number }>((resolve, reject) => {
      const checkpointer = startCheckpointer(
        {
          file,
          synchronous: 'NORMAL',
          intervalMs: 5,
          onFailure: reject,
          onCheckpoint: (result) => {
            if ('error' in result) reject(new Error(result.error));
            else if (result.log > 0) void checkpointer.stop().then(() => resolve(result));
          },
        },
        Worker,
      );
    });
    const { log, checkpointed } = await done;
    expect(checkpointed).toBe(log);
    expect(log).toBeGreaterThan(50);
    database.close();
  });

  it('checkpoints several files from one thread, and stopping one leaves the others running', async () => {
    const dir = await folder();
    const files = [join(dir, 'a.db'), join(dir, 'b.db')];
    const databases = files.map((file) => {
      const database = new Database(file);
      database.pragma('journal_mode = WAL');
      database.pragma('wal_autocheckpoint = 0');
      database.exec('create table t (x text)');
      return database;
    });
    const write = (i: number) => {
      const insert = databases[i]!.prepare('insert into t values (?)');
      for (let n = 0; n < 100; n++) insert.run('x'.repeat(1_000));
    };
    write(0);
    write(1);
    const copied = files.map(() => {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve, count: 0 };
    });
    const checkpointers = files.map((file, i) =>
      startCheckpointer(
        {
          file,
          synchronous: 'NORMAL',
          intervalMs: 5,
          onFailure: (error) => {
            throw error;
          },
          onCheckpoint: (result) => {
            if (!('error' in result) && result.log > 0 && result.checkpointed === result.log) {
              copied[i]!.count++;
              copied[i]!.resolve();
            }
          },
        },
        Worker,
      ),
    );
    await Promise.all(copied.map((c) => c.promise));
    await checkpointers[0]!.stop();
    // The second file is still checkpointed after the first stopped: new pages get copied.
    const before = copied[1]!.count;
    write(1);
    await new Promise<void>((resolve) => {
      const again = setInterval(() => {
        if (copied[1]!.count > before) {
          clearInterval(again);
          resolve();
        }
      }, 5);
    });
    await checkpointers[1]!.stop();
    for (const database of databases) database.close();
  });

  it.runIf(existsSync('/proc/self/task'))('gives many adapters one checkpoint thread, not one each', async () => {
    const dir = await folder();
    const threads = () => readdirSync('/proc/self/task').length;
    // The first adapter may start the process's worker.
    const first = createSqliteAdapter({ filename: join(dir, 'first.db') });
    await first.migrate();
    const before = threads();
    const adapters = [];
    for (let i = 0; i < 8; i++) {
      const adapter = createSqliteAdapter({ filename: join(dir, `auth-${i}.db`) });
      await adapter.migrate();
      adapters.push(adapter);
    }
    expect(threads() - before).toBeLessThan(4);
    for (const adapter of [first, ...adapters]) await adapter.close!();
  });

  it('reports a worker that cannot open its file, so the caller can checkpoint itself', async () => {
    const missing = join(await folder(), 'missing.db');
    const failed = await new Promise<boolean>((resolve) =>
      startCheckpointer({ file: missing, synchronous: 'NORMAL', onFailure: () => resolve(true) }, Worker),
    );
    expect(failed).toBe(true);
  });

  it('createSqliteAdapter on a file turns its own autocheckpoint off while the worker runs, and close() stops it', async () => {
    const adapter = createSqliteAdapter({ filename: join(await folder(), 'auth.db') });
    await adapter.migrate();
    const db = await adapter.loadKysely!();
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
    expect(rows[0]!.wal_autocheckpoint).toBe(0);
    await adapter.close!();
  });

  it('an in-memory adapter has no worker: SQLite’s own autocheckpoint stays', async () => {
    const adapter = createSqliteAdapter({ filename: ':memory:' });
    await adapter.migrate();
    const db = await adapter.loadKysely!();
    const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db);
    expect(rows[0]!.wal_autocheckpoint).toBe(1000);
    await adapter.close!();
  });

  it(
    'close() finishes in a process with nothing else to do (the worker is held while it stops)',
    { timeout: 120_000 },
    async () => {
      const here = dirname(fileURLToPath(import.meta.url));
      const fixture = join(here, 'sqlite-close.fixture.mjs');
      const args = ['--import', 'tsx', '--conditions=@framework/source', fixture];
      // Rejects on a non-zero exit: 13 is Node's "unsettled top-level await", the close never finishing.
      const { stdout } = await promisify(execFile)(process.execPath, args, {
        cwd: join(here, '../../..'),
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      expect(stdout.trim()).toBe('closed');
    },
  );
});
