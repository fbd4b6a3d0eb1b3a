/**
 * Every filter combination of `list()` reads the audit table through an index: no full scan, a user or type
 * filter looked up in an index, and (SQLite) no sort of the matching rows; with statistics (ANALYZE) over a
 * seeded table, on SQLite and PostgreSQL.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fullScan,
  queryPlan,
  searchesBy,
  sqliteSort,
  statementLog,
} from '../../../storage/sql/query-plan-test-support.js';
import { sqlTestDbs, type SqlTestDb } from '../../../storage/sql/sql-test-support.js';
import type { AuditQuery, AuditStorage } from '../types.js';
import { createSqlAuditStorage } from './sql.js';

const dbs = await sqlTestDbs('audit_plan_test');
afterAll(() => dbs.dropAll());

const ROWS = 20_000;
const T0 = 1_700_000_000_000;

/** 20 000 entries: 40 common types, 10 entries of type `rare`, 1 000 users with 20 entries each. */
async function seed(db: SqlTestDb['db']) {
  for (let start = 0; start < ROWS; start += 1_000) {
    const rows = Array.from({ length: 1_000 }, (_, k) => {
      const i = start + k;
      return {
        id: `e${String(i).padStart(6, '0')}`,
        type: i % 2_000 === 0 ? 'rare' : `type.${i % 40}`,
        at: T0 + i * 1_000,
        user_id: `u${i % 1_000}`,
        actor_id: null,
        ip: null,
        user_agent: null,
        request_id: `r${i}`,
        data: '{}',
      };
    });
    await db.insertInto('audit_log').values(rows).execute();
  }
}

/** Each of the 32 combinations of the five filters. */
const FILTERS: Required<Pick<AuditQuery, 'userId' | 'type' | 'from' | 'to' | 'before'>> = {
  userId: 'u7',
  type: 'rare',
  from: new Date(T0 + 1_000_000),
  to: new Date(T0 + 15_000_000),
  before: `${T0 + 12_000_000}:e012000`,
};
const combinations: AuditQuery[] = Array.from({ length: 32 }, (_, mask) =>
  Object.fromEntries(Object.entries(FILTERS).filter((_, bit) => mask & (1 << bit))),
);

describe.each(dbs.dialects)('audit log query plans on %s', (dialect) => {
  const log = statementLog();
  let t: SqlTestDb;
  let storage: AuditStorage;
  beforeAll(async () => {
    t = await dbs.open(dialect, log.log);
    storage = createSqlAuditStorage(t.db);
    await storage.migrate();
    await seed(t.db);
    await sql`analyze`.execute(t.db);
  });
  afterAll(() => t.close());

  it.each(combinations.map((query) => [Object.keys(query).join(' + ') || 'no filter', query] as const))(
    '%s: read through an index, in order',
    async (_, query) => {
      log.clear();
      await storage.list({ ...query, limit: 50 });
      const select = log.statements.find((s) => /^select/i.test(s.sql));
      expect(select).toBeDefined();
      const plan = await queryPlan(t.db, dialect, select!);
      expect(fullScan(plan, 'audit_log'), plan.join('\n')).toBeNull();
      if (dialect === 'sqlite') expect(sqliteSort(plan), plan.join('\n')).toBeNull();
      if (query.userId !== undefined || query.type !== undefined)
        expect(searchesBy(plan, 'user_id') || searchesBy(plan, 'type'), plan.join('\n')).toBe(true);
    },
  );
});
