/**
 * The SQL run store on SQLite and on real PostgreSQL, and a run history that writes through it: runs survive a
 * restart (a new history on the same table lists them), stay unique across processes, and are pruned by age.
 */
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunRecord } from '@framework/trigger';
import { postgresSchemas } from '../../test-support/pg-schemas.js';
import { createRunHistory } from './history.js';
import { createSqlRunStore } from './run-store.js';

const pg = await postgresSchemas('runs_test');
afterAll(() => pg.dropAll());

const run = (n: number, overrides: Partial<RunRecord> = {}): RunRecord => ({
  id: `run-${n}`,
  trigger: n % 2 ? 'odd' : 'even',
  source: 'queue',
  attempt: 1 + (n % 3),
  traceId: `trace-${n}`.padEnd(32, '0'),
  status: 'ok',
  startedAt: new Date(Date.UTC(2026, 10, 25, 12, 0, n)),
  durationMs: n + 0.5,
  logs: [],
  ...overrides,
});

/** A runtime stand-in exposing only `onRun`. */
function fakeRuntime() {
  let listener: ((record: RunRecord) => void) | undefined;
  return {
    onRun(fn: (record: RunRecord) => void) {
      listener = fn;
      return () => (listener = undefined);
    },
    emit: (record: RunRecord) => listener?.(record),
  };
}

const sqlite = async () => new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
const engines: Array<[string, () => Promise<Kysely<any>>, boolean]> = [
  ['SQLite', sqlite, true],
  ['PostgreSQL', () => pg.isolated(), pg.available],
];

for (const [name, open, available] of engines) {
  describe.runIf(available)(`createSqlRunStore on ${name}`, () => {
    it('keeps every field, lists newest first, filters by trigger, finds by id', async () => {
      const store = createSqlRunStore(await open());
      await store.migrate();
      await store.migrate(); // idempotent
      const failed = run(3, {
        status: 'exception',
        error: 'boom',
        logs: [{ level: 'error', message: 'it broke', timestamp: new Date(5), data: { n: 1 } } as never],
      });
      await store.write([run(1), run(2), failed, run(4)]);
      await store.write([run(4)]); // a duplicate id is ignored
      expect((await store.recent({ limit: 10 })).map((r) => r.id)).toEqual(['run-4', 'run-3', 'run-2', 'run-1']);
      expect((await store.recent({ limit: 2, trigger: 'odd' })).map((r) => r.id)).toEqual(['run-3', 'run-1']);
      expect(await store.get('run-3')).toStrictEqual({
        ...failed,
        logs: [{ level: 'error', message: 'it broke', timestamp: new Date(5), data: { n: 1 } }],
      });
      expect(await store.get('run-2')).toStrictEqual(run(2));
      expect(await store.get('nope')).toBeUndefined();
    });

    it('prunes runs that started before a time', async () => {
      const store = createSqlRunStore(await open(), { table: 'my_runs' });
      await store.migrate();
      await store.write([run(1), run(2), run(3)]);
      expect(await store.prune(run(3).startedAt)).toBe(2);
      expect((await store.recent({ limit: 10 })).map((r) => r.id)).toEqual(['run-3']);
    });

    it('a history writing through it: runs outlive the process, with ids unique per process', async () => {
      const db = await open();
      const store = createSqlRunStore(db);
      await store.migrate();
      const first = fakeRuntime();
      const before = createRunHistory(first, { store, flushIntervalMs: 60_000 });
      first.emit(run(1));
      first.emit(run(2, { status: 'exception', error: 'x' }));
      // Listed at once: list() writes what waits first.
      const listed = await before.list();
      expect(listed.map((r) => r.traceId)).toEqual([run(2).traceId, run(1).traceId]);
      expect(listed[0]!.id).toMatch(/^[0-9a-f]{8}\.run-2$/);
      await before.close();

      // "Restart": a new process numbers its runs from run-1 again.
      const second = fakeRuntime();
      const after = createRunHistory(second, { store });
      second.emit(run(1, { startedAt: new Date(Date.UTC(2026, 10, 25, 12, 1, 0)) }));
      const all = await after.list({ limit: 10 });
      expect(all).toHaveLength(3);
      expect(new Set(all.map((r) => r.id)).size).toBe(3);
      expect(after.recent()).toHaveLength(1); // the ring: this process only
      expect((await after.find(listed[0]!.id))?.error).toBe('x');
      expect((await after.list({ trigger: 'even' })).map((r) => r.id)).toEqual([listed[0]!.id]);
      await after.close();
    });
  });
}

describe('a run history whose store fails', () => {
  it('keeps the runs for the next write and warns, without throwing into the runtime', async () => {
    const db = await sqlite();
    const store = createSqlRunStore(db);
    const runtime = fakeRuntime();
    const history = createRunHistory(runtime, { store, flushIntervalMs: 60_000 });
    const warn = console.warn;
    const warnings: string[] = [];
    console.warn = (message: string) => void warnings.push(message);
    try {
      runtime.emit(run(1)); // no table yet: the write fails
      await expect(history.list()).rejects.toThrow();
      expect(warnings.join('\n')).toMatch(/run history: writing 1 runs failed/);
      await store.migrate();
      expect((await history.list()).map((r) => r.traceId)).toEqual([run(1).traceId]);
    } finally {
      console.warn = warn;
      await history.close();
    }
  });
});
