import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { fullScan, queryPlan, statementLog } from './query-plan-test-support.js';
import { sqlTestDbs, type SqlTestDb } from './sql-test-support.js';
import {
  MAX_ADAPTIVE_BATCH,
  PURGE_BATCH_TARGET_MS,
  nextBatchSize,
  purgeInBatches,
  resolvePurgeOptions,
} from './purge.js';

const dbs = await sqlTestDbs('purge_test');
afterAll(() => dbs.dropAll());

const NOW = 1_800_000_000_000;
const EXPIRED = 20_000;
const LIVE = 300;

/** Inserts `count` sessions expiring at `expires` and as many verification tokens, 1 000 rows per statement. */
async function seed({ db, adapter }: SqlTestDb, count: number, expires: number, tag: string) {
  const user = await adapter.createUser({ email: `${tag}@example.com` });
  for (let start = 0; start < count; start += 1_000) {
    const n = Math.min(1_000, count - start);
    const ids = Array.from({ length: n }, (_, i) => `${tag}-${start + i}`);
    await db
      .insertInto('auth_sessions')
      .values(ids.map((id) => ({ id, token_hash: 'h', user_id: user.id, expires, created_at: 0 })))
      .execute();
    await db
      .insertInto('auth_verification_tokens')
      .values(ids.map((id) => ({ identifier: id, token_hash: 'h', expires })))
      .execute();
  }
}

async function count(db: SqlTestDb['db'], table: string): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe.each(dbs.dialects)('purgeExpired in batches on %s', (dialect) => {
  let current: SqlTestDb | undefined;
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  async function seeded() {
    current = await dbs.open(dialect);
    await seed(current, EXPIRED, NOW - 1, 'old');
    await seed(current, LIVE, NOW + 60_000, 'live');
    return current;
  }

  it('deletes every expired row batch by batch, keeps the live ones, and lets other work run between batches', async () => {
    const t = await seeded();
    // Counts how often the event loop reaches its check phase while the purge runs.
    let ticks = 0;
    let purging = true;
    const tick = () => {
      ticks++;
      if (purging) setImmediate(tick);
    };
    setImmediate(tick);
    const ticksBefore = ticks;
    const result = await t.adapter.purgeExpired(new Date(NOW), { batchSize: 500 });
    purging = false;
    expect(result).toStrictEqual({ sessions: EXPIRED, verificationTokens: EXPIRED, more: false });
    // 80 batches, each followed by a yield: other callbacks ran in between.
    expect(ticks - ticksBefore).toBeGreaterThan(0);
    expect(await count(t.db, 'auth_sessions')).toBe(LIVE);
    expect(await count(t.db, 'auth_verification_tokens')).toBe(LIVE);
    expect(await t.adapter.purgeExpired(new Date(NOW))).toStrictEqual({
      sessions: 0,
      verificationTokens: 0,
      more: false,
    });
  });

  it('stops at its budget saying more remain, and a later call finishes', async () => {
    const t = await seeded();
    const first = await t.adapter.purgeExpired(new Date(NOW), { batchSize: 400, budgetMs: 0 });
    // A budget of 0 runs exactly one batch, of the caller's size when that is below the default start.
    expect(first).toStrictEqual({ sessions: 400, verificationTokens: 0, more: true });
    const rest = await t.adapter.purgeExpired(new Date(NOW), { batchSize: 1_000 });
    expect(rest).toStrictEqual({ sessions: EXPIRED - 400, verificationTokens: EXPIRED, more: false });
    expect(await count(t.db, 'auth_sessions')).toBe(LIVE);
    expect(await count(t.db, 'auth_verification_tokens')).toBe(LIVE);
  });

  it('deleteExpiredSessions deletes in batches too', async () => {
    const t = await seeded();
    expect(await t.adapter.deleteExpiredSessions(new Date(NOW))).toBe(EXPIRED);
    expect(await count(t.db, 'auth_sessions')).toBe(LIVE);
  });
});

describe.each(dbs.dialects)('purge batch plans on %s', (dialect) => {
  it('each batch finds its rows through the expiry index and deletes them by key or row address, not by walking every expired row', async () => {
    const log = statementLog();
    const t = await dbs.open(dialect, log.log);
    try {
      // Most rows live, as on a real table: the expired ones must be found through the index, not by a scan.
      await seed(t, 2_000, NOW - 1, 'old');
      await seed(t, EXPIRED, NOW + 60_000, 'live');
      await sql.raw('analyze').execute(t.db);
      log.clear();
      await t.adapter.purgeExpired(new Date(NOW), { batchSize: 500, budgetMs: 0 });
      const batch = log.statements.find((s) => /^delete/i.test(s.sql));
      const plan = await queryPlan(t.db, dialect, batch!);
      expect(fullScan(plan, 'auth_sessions'), plan.join('\n')).toBeNull();
      // PostgreSQL planned a key IN (subquery) as a join over every expired row; a TID scan fetches just the batch.
      if (dialect === 'postgres') {
        expect(plan.join('\n')).toMatch(/Tid Scan on auth_sessions/);
        expect(plan.join('\n')).toMatch(/auth_sessions_expires_idx/);
      } else {
        // The batch is picked from the expiry index alone (it holds the rowid) and deleted by rowid.
        expect(plan.join('\n')).toMatch(/SEARCH auth_sessions USING INTEGER PRIMARY KEY \(rowid=\?\)/);
        expect(plan.join('\n')).toMatch(/SEARCH auth_sessions USING COVERING INDEX auth_sessions_expires_idx/);
      }
    } finally {
      await t.close();
    }
  });
});

describe.skipIf(!dbs.dialects.includes('postgres'))('purge autovacuum on PostgreSQL', () => {
  it('migration 0005 lowers the autovacuum scale factor of the session and token tables', async () => {
    const t = await dbs.open('postgres');
    try {
      for (const table of ['auth_sessions', 'auth_verification_tokens']) {
        const { rows } = await sql<{
          reloptions: string[] | null;
        }>`select reloptions from pg_class where oid = ${table}::regclass`.execute(t.db);
        expect(rows[0]?.reloptions).toEqual(
          expect.arrayContaining(['autovacuum_vacuum_scale_factor=0.01', 'autovacuum_vacuum_threshold=1000']),
        );
      }
    } finally {
      await t.close();
    }
  });
});

describe('adaptive batch size', () => {
  it('scales down in proportion after a slow batch, doubles after a quick one, and stays within bounds', () => {
    expect(nextBatchSize(500, PURGE_BATCH_TARGET_MS * 2)).toBe(250);
    // The fixed batch of 2 000 rows that took 112 ms on a 200 000-user SQLite file: the next one aims at 20 ms.
    expect(nextBatchSize(2_000, 112)).toBe(357);
    expect(nextBatchSize(500, 1)).toBe(1_000);
    expect(nextBatchSize(500, PURGE_BATCH_TARGET_MS / 2)).toBe(500);
    expect(nextBatchSize(16, 1_000)).toBe(16);
    expect(nextBatchSize(MAX_ADAPTIVE_BATCH, 0)).toBe(MAX_ADAPTIVE_BATCH);
    // A caller's batchSize is the ceiling, and the floor when it is below 16.
    expect(nextBatchSize(300, 0, 300)).toBe(300);
    expect(nextBatchSize(8, 1_000, 8)).toBe(8);
  });

  /** A batch that deletes what it is asked (until `rows` run out) and takes `msOf(limit)` on the test's clock. */
  function fakeTable(rows: number, msOf: (limit: number) => number) {
    const clock = { ms: 0 };
    const sizes: number[] = [];
    let left = rows;
    const batch = async (_table: string, _now: Date, limit: number) => {
      sizes.push(limit);
      clock.ms += msOf(limit);
      const n = Math.min(limit, left);
      left -= n;
      return n;
    };
    return { batch, sizes, clock: () => clock.ms, left: () => left };
  }

  it('sizes each statement by how long the last one took, below the caller’s batchSize', async () => {
    // 25 µs a row: 800 rows take the 20 ms target.
    const slow = fakeTable(10_000, (limit) => limit * 0.025);
    await purgeInBatches(slow.batch, ['t'], new Date(), resolvePurgeOptions({ batchSize: 2_000 }), slow.clock);
    // Starts at the default 500 (12.5 ms: kept), never above the 2 000 asked for.
    expect(slow.sizes.slice(0, 3)).toEqual([500, 500, 500]);
    expect(Math.max(...slow.sizes)).toBeLessThanOrEqual(2_000);
    expect(slow.left()).toBe(0);

    // 1 µs a row: quick statements double up to the ceiling, 5 000 without a batchSize, the caller's with one.
    const quick = fakeTable(40_000, (limit) => limit * 0.001);
    await purgeInBatches(quick.batch, ['t'], new Date(), resolvePurgeOptions(), quick.clock);
    expect(quick.sizes.slice(0, 6)).toEqual([500, 1_000, 2_000, 4_000, 5_000, 5_000]);
    const capped = fakeTable(4_000, (limit) => limit * 0.001);
    await purgeInBatches(capped.batch, ['t'], new Date(), resolvePurgeOptions({ batchSize: 300 }), capped.clock);
    expect(new Set(capped.sizes)).toEqual(new Set([300]));
  });

  it('a statement slower than the target shrinks the next, so no later batch blocks for long', async () => {
    // 56 µs a row (a fixed 2 000-row batch took 112 ms): after the first, batches stay near 20 ms.
    const table = fakeTable(20_000, (limit) => limit * 0.056);
    await purgeInBatches(table.batch, ['t'], new Date(), resolvePurgeOptions({ batchSize: 2_000 }), table.clock);
    const times = table.sizes.map((size) => size * 0.056);
    expect(times[0]).toBe(28);
    expect(Math.max(...times.slice(1))).toBeLessThanOrEqual(PURGE_BATCH_TARGET_MS);
    expect(table.left()).toBe(0);
  });

  it('with a small budget deletes several batches, says more remain, and the next call resumes', async () => {
    // Each 500-row batch takes 10 ms; a 25 ms budget starts batches at 0, 10 and 20 ms, then stops.
    const table = fakeTable(3_000, () => 10);
    const options = resolvePurgeOptions({ batchSize: 500, budgetMs: 25 });
    const first = await purgeInBatches(table.batch, ['t', 'u'], new Date(), options, table.clock);
    expect(first).toStrictEqual({ deleted: [1_500, 0], more: true });
    const second = await purgeInBatches(table.batch, ['t', 'u'], new Date(), options, table.clock);
    expect(second).toStrictEqual({ deleted: [1_500, 0], more: true });
    // The last call finds the rows gone: a short batch ends the table, and the empty second table ends the call.
    const last = await purgeInBatches(table.batch, ['t', 'u'], new Date(), options, table.clock);
    expect(last).toStrictEqual({ deleted: [0, 0], more: false });
  });
});
