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
    const first = await t.adapter.purgeExpired(new Date(NOW), { batchSize: 1_000, budgetMs: 0 });
    // A budget of 0 runs exactly one batch.
    expect(first).toStrictEqual({ sessions: 1_000, verificationTokens: 0, more: true });
    const rest = await t.adapter.purgeExpired(new Date(NOW), { batchSize: 1_000 });
    expect(rest).toStrictEqual({ sessions: EXPIRED - 1_000, verificationTokens: EXPIRED, more: false });
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
      if (dialect === 'postgres') expect(plan.join('\n')).toMatch(/Tid Scan on auth_sessions/);
      else expect(plan.join('\n')).toMatch(/SEARCH auth_sessions USING (PRIMARY KEY|INDEX sqlite_autoindex)/);
      expect(plan.join('\n')).toMatch(/auth_sessions_expires_idx/);
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
  it('halves after a slow batch, doubles after a quick one, and stays within bounds', () => {
    expect(nextBatchSize(500, PURGE_BATCH_TARGET_MS * 3)).toBe(250);
    expect(nextBatchSize(500, 1)).toBe(1_000);
    expect(nextBatchSize(500, PURGE_BATCH_TARGET_MS / 2)).toBe(500);
    expect(nextBatchSize(16, 1_000)).toBe(16);
    expect(nextBatchSize(MAX_ADAPTIVE_BATCH, 0)).toBe(MAX_ADAPTIVE_BATCH);
  });

  it('sizes each statement by how long the last one took, only when the caller gave no batchSize', async () => {
    const sizes: number[] = [];
    let ms = 0;
    let slow = true;
    // Statements that take 30 ms and 1 ms in turn, on a clock the test moves.
    const batch = async (_table: string, _now: Date, limit: number) => {
      sizes.push(limit);
      ms += slow ? PURGE_BATCH_TARGET_MS + 10 : 1;
      slow = !slow;
      return sizes.length < 4 ? limit : 0;
    };
    await purgeInBatches(batch, ['t'], new Date(), resolvePurgeOptions(), () => ms);
    expect(sizes).toEqual([500, 250, 500, 250]);
    sizes.length = 0;
    slow = true;
    await purgeInBatches(batch, ['t'], new Date(), resolvePurgeOptions({ batchSize: 300 }), () => ms);
    expect(sizes).toEqual([300, 300, 300, 300]);
  });
});
