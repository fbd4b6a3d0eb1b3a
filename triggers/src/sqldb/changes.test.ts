import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_URL, serviceAvailable } from '../../../test-support/services.js';
import { defineTrigger } from '../define.js';
import { eventually } from '../engine/conformance.js';
import { createTriggerRuntime, type TriggerRuntime } from '../runtime/create.js';
import type { SqlDbEvent, SqlDbSource, TriggerConfig } from '../types.js';
import type { DatabaseBinding } from './consumer.js';
import { installChangeCapture } from './install.js';
import type { ChangesOptions } from './start.js';

// Under CI=true this throws when PostgreSQL is down, failing the file.
const pgUp = await serviceAvailable('postgres');
const pg = (await import('pg')).default;

interface Fixture {
  /** A new connection to the same database. */
  connect(): DatabaseBinding;
  db: Kysely<any>;
  teardown(): Promise<void>;
}

async function postgresFixture(): Promise<Fixture> {
  const schema = `trigger_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const pools: InstanceType<typeof pg.Pool>[] = [];
  const kysely = () => {
    const pool = new pg.Pool({ connectionString: DATABASE_URL, options: `-c search_path=${schema}`, max: 4 });
    pools.push(pool);
    return new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  };
  const db = kysely();
  return {
    db,
    connect: () => kysely(),
    async teardown() {
      await Promise.all(pools.map((p) => p.end()));
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    },
  };
}

async function sqliteFixture(): Promise<Fixture> {
  const dir = await mkdtemp(join(tmpdir(), 'changes-'));
  const file = join(dir, 'app.db');
  const handles: Database.Database[] = [];
  const kysely = () => {
    const database = new Database(file);
    database.pragma('journal_mode = WAL');
    database.pragma('busy_timeout = 5000');
    handles.push(database);
    return new Kysely<any>({ dialect: new SqliteDialect({ database }) });
  };
  return {
    db: kysely(),
    connect: () => kysely(),
    async teardown() {
      for (const handle of handles) handle.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const quiet = { observability: { metrics: false, tracing: false } } as const;

function runChangeSuite(name: string, make: () => Promise<Fixture>): void {
  describe(`sqldb change capture on ${name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    async function setup() {
      const fixture = await make();
      cleanups.push(() => fixture.teardown());
      const { db } = fixture;
      await sql`CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL, name TEXT)`.execute(db);
      await sql`CREATE TABLE memberships (user_id INTEGER NOT NULL, team TEXT NOT NULL, role TEXT, PRIMARY KEY (user_id, team))`.execute(
        db,
      );
      await sql`CREATE TABLE audit (id INTEGER PRIMARY KEY, note TEXT)`.execute(db);
      await installChangeCapture(db, { tables: ['users', 'memberships'] });
      return fixture;
    }

    function runtimeOn(
      binding: DatabaseBinding,
      source: Partial<SqlDbSource> = {},
      handle: (event: SqlDbEvent) => void | Promise<void> = () => {},
      config: TriggerConfig = {},
      changes: ChangesOptions = {},
    ): { runtime: TriggerRuntime; events: SqlDbEvent[] } {
      const events: SqlDbEvent[] = [];
      const runtime = createTriggerRuntime({
        env: {},
        databases: { main: binding },
        changes: { pollInterval: '50ms', ...changes },
        triggers: {
          changes: defineTrigger({
            source: { type: 'sqldb', database: 'main', ...source },
            config: { ...quiet, ...config },
            handle: async (event) => {
              events.push(event);
              await handle(event);
            },
          }),
        },
      });
      cleanups.push(() => runtime.stop({ timeout: '2s' }));
      return { runtime, events };
    }

    const outboxCount = async (db: Kysely<any>) =>
      Number((await sql<{ n: number }>`SELECT COUNT(*) AS n FROM framework_changes`.execute(db)).rows[0]!.n);

    it('delivers INSERT, UPDATE and DELETE with the right old and new rows and primary keys, then deletes the rows', async () => {
      const { db } = await setup();
      const { runtime, events } = runtimeOn(db);
      await runtime.start();
      await sql`INSERT INTO users (id, email, name) VALUES (1, 'ada@example.com', 'Ada')`.execute(db);
      await sql`UPDATE users SET name = 'Ada L.' WHERE id = 1`.execute(db);
      await sql`DELETE FROM users WHERE id = 1`.execute(db);
      await sql`INSERT INTO memberships (user_id, team, role) VALUES (1, 'core', 'admin')`.execute(db);
      await sql`INSERT INTO audit (id, note) VALUES (1, 'not captured')`.execute(db);
      await eventually(() => expect(events).toHaveLength(4));
      const ada = { id: 1, email: 'ada@example.com', name: 'Ada' };
      expect(events).toEqual([
        { database: 'main', table: 'users', operation: 'INSERT', oldRow: null, newRow: ada, primaryKey: 1 },
        {
          database: 'main',
          table: 'users',
          operation: 'UPDATE',
          oldRow: ada,
          newRow: { ...ada, name: 'Ada L.' },
          primaryKey: 1,
        },
        {
          database: 'main',
          table: 'users',
          operation: 'DELETE',
          oldRow: { ...ada, name: 'Ada L.' },
          newRow: null,
          primaryKey: 1,
        },
        {
          database: 'main',
          table: 'memberships',
          operation: 'INSERT',
          oldRow: null,
          newRow: { user_id: 1, team: 'core', role: 'admin' },
          primaryKey: { user_id: 1, team: 'core' },
        },
      ]);
      await eventually(async () => expect(await outboxCount(db)).toBe(0));
    });

    it('filters by tables and operations', async () => {
      const { db } = await setup();
      const { runtime, events } = runtimeOn(db, { tables: ['users'], operations: ['DELETE'] });
      await runtime.start();
      await sql`INSERT INTO users (id, email) VALUES (2, 'b@example.com')`.execute(db);
      await sql`INSERT INTO memberships (user_id, team) VALUES (2, 'x')`.execute(db);
      await sql`DELETE FROM users WHERE id = 2`.execute(db);
      await eventually(() => expect(events.map((e) => `${e.operation} ${e.table}`)).toEqual(['DELETE users']));
    });

    it('delivers changes made while no runtime ran when one starts', async () => {
      const { db } = await setup();
      for (let id = 10; id < 15; id++)
        await sql`INSERT INTO users (id, email) VALUES (${id}, ${`u${id}@example.com`})`.execute(db);
      const first = runtimeOn(db);
      await first.runtime.start();
      await eventually(() => expect(first.events).toHaveLength(5));
      await first.runtime.stop();
      await sql`UPDATE users SET name = 'later' WHERE id = 10`.execute(db);
      const second = runtimeOn(db);
      await second.runtime.start();
      await eventually(() => expect(second.events.map((e) => [e.operation, e.primaryKey])).toEqual([['UPDATE', 10]]));
      expect(first.events.map((e) => e.primaryKey)).toEqual([10, 11, 12, 13, 14]);
    });

    it('never delivers the same change to two consumers', async () => {
      const fixture = await setup();
      const slow = () => new Promise<void>((resolve) => setTimeout(resolve, 5));
      const a = runtimeOn(fixture.connect(), {}, slow);
      const b = runtimeOn(fixture.connect(), {}, slow);
      await Promise.all([a.runtime.start(), b.runtime.start()]);
      for (let id = 100; id < 160; id++)
        await sql`INSERT INTO users (id, email) VALUES (${id}, ${`u${id}@example.com`})`.execute(fixture.db);
      await eventually(() => expect(a.events.length + b.events.length).toBeGreaterThanOrEqual(60), 10_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const keys = [...a.events, ...b.events].map((e) => e.primaryKey as number);
      expect(keys).toHaveLength(60);
      expect(new Set(keys).size).toBe(60);
    });

    it('renews its lease while a batch outlasts it: two consumers with slow handlers handle each change once', async () => {
      const fixture = await setup();
      const slow = () => new Promise<void>((resolve) => setTimeout(resolve, 40));
      // A batch of 20 rows takes ~800 ms, far beyond the 200 ms lease.
      const changes = { pollInterval: '20ms', lease: '200ms', batchSize: 20 } as const;
      const a = runtimeOn(fixture.connect(), {}, slow, {}, changes);
      const b = runtimeOn(fixture.connect(), {}, slow, {}, changes);
      for (let id = 200; id < 280; id++)
        await sql`INSERT INTO users (id, email) VALUES (${id}, ${`u${id}@example.com`})`.execute(fixture.db);
      await Promise.all([a.runtime.start(), b.runtime.start()]);
      await eventually(async () => expect(await outboxCount(fixture.db)).toBe(0), 15_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const keys = [...a.events, ...b.events].map((e) => e.primaryKey as number);
      expect(keys.length - new Set(keys).size).toBe(0);
      expect(new Set(keys).size).toBe(80);
      expect(a.events.length).toBeGreaterThan(0);
      expect(b.events.length).toBeGreaterThan(0);
    }, 30_000);

    it('retries a failing handler after retryDelay and keeps the change as failed when retries are spent', async () => {
      const { db } = await setup();
      const attempts: number[] = [];
      const { runtime } = runtimeOn(
        db,
        {},
        () => {
          throw new Error('handler down');
        },
        { retries: 1, retryDelay: '100ms' },
      );
      runtime.onLog((entry) => {
        if (entry.message.includes('failed for good')) attempts.push(1);
      });
      await runtime.start();
      await sql`INSERT INTO users (id, email) VALUES (7, 'f@example.com')`.execute(db);
      await eventually(() => expect(attempts).toHaveLength(1));
      const row = (
        await sql<{
          attempts: number;
          failed_at: unknown;
          last_error: string;
        }>`SELECT attempts, failed_at, last_error FROM framework_changes`.execute(db)
      ).rows;
      expect(row).toMatchObject([{ attempts: 2, last_error: 'changes: handler down' }]);
      expect(row[0]!.failed_at).not.toBeNull();
    });
  });
}

runChangeSuite('SQLite', sqliteFixture);
describe.skipIf(!pgUp)('PostgreSQL', () => {
  runChangeSuite('PostgreSQL', postgresFixture);

  it('wakes at once on NOTIFY when given a listening client', async () => {
    const fixture = await postgresFixture();
    const listen = new pg.Client({ connectionString: DATABASE_URL });
    await listen.connect();
    try {
      await sql`CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)`.execute(fixture.db);
      await installChangeCapture(fixture.db, { tables: ['users'], operations: ['INSERT'] });
      const events: SqlDbEvent[] = [];
      const runtime = createTriggerRuntime({
        env: {},
        databases: { main: { db: fixture.db, listen } },
        changes: { pollInterval: '1m' },
        triggers: {
          t: defineTrigger({
            source: { type: 'sqldb', database: 'main' },
            config: quiet,
            handle: (e) => void events.push(e),
          }),
        },
      });
      await runtime.start();
      await new Promise((resolve) => setTimeout(resolve, 100)); // the first (empty) poll, then the long sleep
      const inserted = Date.now();
      await sql`INSERT INTO users (id, email) VALUES (1, 'n@example.com')`.execute(fixture.db);
      await eventually(() => expect(events).toHaveLength(1), 3_000);
      expect(Date.now() - inserted).toBeLessThan(2_000);
      await runtime.stop();
    } finally {
      await listen.end();
      await fixture.teardown();
    }
  });
});
