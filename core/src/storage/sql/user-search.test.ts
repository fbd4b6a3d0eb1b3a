/**
 * The admin search of `listUsers({ search })` on each SQL backend: what it matches (prefix on SQLite, anywhere
 * with pg_trgm on PostgreSQL, prefix without it), and that it reads the users table through an index (EXPLAIN
 * over 20 000 ANALYZEd users), never in full; on SQLite in the searched index's order, sorting no matches.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { fullScan, queryPlan, sqliteSort, statementLog } from './query-plan-test-support.js';
import { sqlTestDbs, type SqlTestDb } from './sql-test-support.js';
import { searchIndexes } from './user-search.js';
import { tableNames } from './tables.js';

const dbs = await sqlTestDbs('user_search_test');
afterAll(() => dbs.dropAll());
const USERS = 20_000;

async function seed(db: SqlTestDb['db']) {
  for (let start = 0; start < USERS; start += 1_000) {
    const rows = Array.from({ length: 1_000 }, (_, k) => {
      const i = start + k;
      return {
        id: `id-${String(i).padStart(6, '0')}`,
        email: `member${i}@example.com`,
        email_normalized: `member${i}@example.com`,
        name: `Person Number${i}`,
      };
    });
    await db.insertInto('auth_users').values(rows).execute();
  }
}

const ids = async (t: SqlTestDb, search: string) =>
  (await t.adapter.listUsers!({ search, limit: 100 })).users.map((u) => u.id);

describe.each(dbs.dialects)('admin user search on %s', (dialect) => {
  let t: SqlTestDb | undefined;
  const log = statementLog();
  afterEach(async () => {
    vi.restoreAllMocks();
    await t?.close();
    t = undefined;
  });

  async function people() {
    t = await dbs.open(dialect, log.log);
    await t.adapter.createUser({ id: 'a', email: 'Ada@Example.com', name: 'Ada Lovelace' });
    await t.adapter.createUser({ id: 'b', email: 'babbage@example.org', name: 'ada@home' });
    return t;
  }

  it('a search holding @ looks at the email only', async () => {
    const db = await people();
    expect(await ids(db, 'ada@')).toEqual(['a']);
    expect(await ids(db, 'ada@home')).toEqual([]);
  });

  it.runIf(dialect === 'sqlite')('SQLite matches the start of the email or name only', async () => {
    const db = await people();
    expect(await ids(db, 'ada')).toEqual(['a', 'b']);
    expect(await ids(db, 'lovelace')).toEqual([]);
    expect(await ids(db, 'example')).toEqual([]);
  });

  it.runIf(dialect === 'postgres')(
    'PostgreSQL with pg_trgm matches anywhere from three letters or digits on, by prefix below',
    async () => {
      const db = await people();
      expect(await ids(db, 'lovelace')).toEqual(['a']);
      expect(await ids(db, 'example')).toEqual(['a', 'b']);
      expect(await ids(db, 'ce')).toEqual([]);
      expect(await ids(db, 'ad')).toEqual(['a', 'b']);
    },
  );

  it.runIf(dialect === 'postgres')(
    'PostgreSQL without the trigram indexes matches by prefix and logs how to enable pg_trgm',
    async () => {
      const db = await people();
      const names = searchIndexes(tableNames());
      await sql`drop index ${sql.id(names.emailTrigram)}, ${sql.id(names.nameTrigram)}`.execute(db.db);
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const fresh = { ...db, adapter: (await import('./adapter.js')).createSqlAdapter({ db: db.db, dialect }) };
      expect(await ids(fresh, 'lovelace')).toEqual([]);
      expect(await ids(fresh, 'ada lov')).toEqual(['a']);
      expect(warn.mock.calls.flat().join(' ')).toMatch(/CREATE EXTENSION pg_trgm/);
    },
  );

  describe('query plans over 20 000 users', () => {
    const searches = [
      ['a whole email', 'member12345@example.com'],
      ['an email prefix', 'member1234'],
      ['a name prefix', 'person number777'],
      ['a word inside the name', 'number777'],
      ['no match', 'nobody-here'],
      ['two characters', 'zz'],
    ] as const;
    it.each(searches)('%s: the users table is read through an index', async (_, search) => {
      t = await dbs.open(dialect, log.log);
      await seed(t.db);
      // VACUUM also moves GIN's pending entries into the index, as autovacuum does on a live table.
      await sql.raw(dialect === 'postgres' ? 'vacuum analyze' : 'analyze').execute(t.db);
      for (const after of [undefined, 'id-005000']) {
        log.clear();
        await t.adapter.listUsers!({ search, limit: 20, ...(after ? { after } : {}) });
        const select = log.statements.find((s) => /^select/i.test(s.sql) && s.sql.includes('auth_users'));
        const plan = await queryPlan(t.db, dialect, select!);
        expect(fullScan(plan, 'auth_users'), plan.join('\n')).toBeNull();
        expect(plan.join('\n'), plan.join('\n')).toMatch(/_email_|_name_/);
      }
    });

    it.runIf(dialect === 'sqlite')(
      'a short prefix matching most users reads each index in order from the cursor, sorting none of the matches',
      async () => {
        t = await dbs.open(dialect, log.log);
        await seed(t.db);
        await sql`analyze`.execute(t.db);
        // 'm' and 'p' start every email and every name: 20 000 matches each.
        for (const search of ['member1', 'person']) {
          const first = await t.adapter.listUsers!({ search, limit: 20 });
          log.clear();
          await t.adapter.listUsers!({ search, limit: 20, after: first.next! });
          const selects = log.statements.filter((s) => /^select/i.test(s.sql) && s.sql.includes('auth_users'));
          expect(selects).toHaveLength(2);
          for (const select of selects) {
            const plan = await queryPlan(t.db, dialect, select);
            expect(fullScan(plan, 'auth_users'), plan.join('\n')).toBeNull();
            // Ties of a name are put in id order as they are read ("FOR LAST TERM OF ORDER BY"); no whole sort.
            const sort = sqliteSort(plan);
            expect(sort === null || /FOR (LAST TERM|RIGHT PART) OF ORDER BY/.test(sort), plan.join('\n')).toBe(true);
          }
        }
      },
    );
  });
});
