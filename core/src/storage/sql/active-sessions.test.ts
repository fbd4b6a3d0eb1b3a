/**
 * `countActiveSessions()` for dashboards: one COUNT per minute per adapter, however often it is called; with an
 * explicit `now`, an exact COUNT every time. Statements are counted through a Kysely log hook.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { statementLog } from './query-plan-test-support.js';
import { sqlTestDbs, type SqlTestDb } from './sql-test-support.js';

const dbs = await sqlTestDbs('active_sessions_test');
afterAll(() => dbs.dropAll());

describe.each(dbs.dialects)('countActiveSessions() on %s', (dialect) => {
  const log = statementLog();
  const counts = () => log.statements.filter((s) => /\bcount\(\*\)/i.test(s.sql)).length;
  let t: SqlTestDb | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await t?.close();
    t = undefined;
  });

  async function withSessions(n: number) {
    t = await dbs.open(dialect, log.log);
    const user = await t.adapter.createUser({ email: 'count@example.com' });
    for (let i = 0; i < n; i++) await addSession(user.id, i);
    log.clear();
    return { adapter: t.adapter, user };
  }
  const addSession = (userId: string, i: number) =>
    t!.adapter.createSession({
      id: `s${i}-${Math.random()}`,
      tokenHash: 'h',
      userId,
      expires: new Date(Date.now() + 3_600_000),
      createdAt: new Date(),
    });

  it('reads the count once, then answers from it within the minute without a COUNT', async () => {
    const { adapter, user } = await withSessions(3);
    const first = await Promise.all(Array.from({ length: 5 }, () => adapter.countActiveSessions!()));
    expect(first).toStrictEqual([3, 3, 3, 3, 3]);
    expect(counts()).toBe(1);
    await addSession(user.id, 99);
    for (let i = 0; i < 20; i++) expect(await adapter.countActiveSessions!()).toBe(3);
    expect(counts()).toBe(1);
  });

  it('after the minute, answers with the kept count and re-reads it once in the background', async () => {
    const { adapter, user } = await withSessions(2);
    vi.useFakeTimers({ toFake: ['Date'] });
    expect(await adapter.countActiveSessions!()).toBe(2);
    await addSession(user.id, 99);
    vi.setSystemTime(Date.now() + 61_000);
    expect(await Promise.all([adapter.countActiveSessions!(), adapter.countActiveSessions!()])).toStrictEqual([2, 2]);
    await vi.waitFor(async () => expect(await adapter.countActiveSessions!()).toBe(3));
    expect(counts()).toBe(2);
  });

  it('with an explicit now, counts exactly every time', async () => {
    const { adapter } = await withSessions(2);
    const now = new Date();
    for (let i = 0; i < 3; i++) expect(await adapter.countActiveSessions!(now)).toBe(2);
    expect(counts()).toBe(3);
  });
});
