/**
 * SQLite's sliced count of active sessions: the same number as one `COUNT(*)`, ties on `expires` included, with
 * each statement walking at most one slice of the expiry index and the event loop running between statements.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { fullScan, queryPlan, sqliteSort, statementLog } from './query-plan-test-support.js';
import { sqlTestDbs, type SqlTestDb } from './sql-test-support.js';
import { COUNT_SLICE, countAfterInSlices } from './sliced-count.js';

const dbs = await sqlTestDbs('sliced_count_test');
afterAll(() => dbs.dropAll());

const NOW = 1_800_000_000_000;

describe('countAfterInSlices on SQLite', () => {
  const log = statementLog();
  let t: SqlTestDb | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** `live` sessions expiring at a few shared instants after NOW (ties on `expires`), and `expired` before it. */
  async function seeded(live: number, expired: number) {
    t = await dbs.open('sqlite', log.log);
    const user = await t.adapter.createUser({ email: 'slices@example.com' });
    const rows = [
      ...Array.from({ length: live }, (_, i) => ({ id: `l${i}`, expires: NOW + 1 + (i % 3) })),
      ...Array.from({ length: expired }, (_, i) => ({ id: `e${i}`, expires: NOW - (i % 2) })),
    ];
    await t.db
      .insertInto('auth_sessions')
      .values(rows.map((r) => ({ ...r, token_hash: 'h', user_id: user.id, created_at: 0 })))
      .execute();
    log.clear();
    return t;
  }

  it.each([1, 2, 3, 7, 10, 11, 1_000])('counts exactly with slices of %i, ties on expires included', async (slice) => {
    const { db } = await seeded(10, 5);
    expect(await countAfterInSlices(db, 'auth_sessions', NOW, slice)).toBe(10);
    expect(await countAfterInSlices(db, 'auth_sessions', NOW + 1, slice)).toBe(6);
    expect(await countAfterInSlices(db, 'auth_sessions', NOW + 3, slice)).toBe(0);
    expect(await countAfterInSlices(db, 'auth_sessions', 0, slice)).toBe(15);
  });

  it('walks one slice per statement, seeks to where the last one ended, and lets the event loop run between them', async () => {
    const { db } = await seeded(10, 5);
    let ticks = 0;
    let counting = true;
    const tick = () => {
      ticks++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    const before = ticks;
    expect(await countAfterInSlices(db, 'auth_sessions', NOW, 3)).toBe(10);
    counting = false;
    // Three full slices of 3 (the event loop turning after each), then the last, short one.
    expect(ticks - before).toBeGreaterThanOrEqual(3);
    const statements = [...log.statements];
    expect(statements.filter((s) => /count\(\*\)/.test(s.sql)).length).toBeGreaterThan(0);
    for (const statement of statements) {
      if (!/count\(\*\)/.test(statement.sql)) expect(statement.parameters.at(-1)).toBe(2);
      const plan = (await queryPlan(db, 'sqlite', statement)).join('\n');
      expect(fullScan([plan], 'auth_sessions'), plan).toBeNull();
      expect(sqliteSort([plan]), plan).toBeNull();
      // Inside a run of equal expiry times the seek uses the rowid too, so no entry is walked twice.
      expect(plan).toMatch(/USING COVERING INDEX auth_sessions_expires_idx \((expires>\?|expires=\? AND rowid>\?)\)/);
    }
    expect(statements.some((s) => /expires = \?/.test(s.sql))).toBe(true);
  });

  it('is what countActiveSessions(now) answers on SQLite, slice by slice', async () => {
    const { adapter } = await seeded(12, 4);
    expect(await adapter.countActiveSessions!(new Date(NOW))).toBe(12);
    expect(log.statements.some((s) => /offset/i.test(s.sql) && s.parameters.at(-1) === COUNT_SLICE - 1)).toBe(true);
    await sql`delete from auth_sessions where id = 'l0'`.execute(t!.db);
    expect(await adapter.countActiveSessions!(new Date(NOW))).toBe(11);
  });
});
