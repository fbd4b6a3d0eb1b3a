/**
 * The admin search of `listUsers({ search })` on each SQL backend and the memory adapter: what it matches
 * (prefix on SQLite, anywhere with pg_trgm on PostgreSQL, prefix matches first, prefix without it), that paging
 * returns every match once in the search order (property), and that it reads the users table through an index
 * (EXPLAIN over 20 000 ANALYZEd users), never in full; prefix matches in the searched index's order, sorting
 * none of them.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { fullScan, queryPlan, sqliteSort, statementLog } from './query-plan-test-support.js';
import { sqlTestDbs, type SqlTestDb } from './sql-test-support.js';
import { searchIndexes } from './user-search.js';
import { tableNames } from './tables.js';
import { createMemoryAdapter } from '../memory.js';
import { normalizeEmail } from '../records.js';
import { compareSearchMatches, searchMatch } from '../search-order.js';
import type { StorageAdapter } from '../types.js';

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

/** Every page of a search, followed through `next` (at most 100 pages). */
async function allPages(adapter: StorageAdapter, search: string, limit: number): Promise<string[][]> {
  const pages: string[][] = [];
  let after: string | undefined;
  do {
    const page = await adapter.listUsers!({ search, limit, ...(after ? { after } : {}) });
    pages.push(page.users.map((u) => u.id));
    after = page.next ?? undefined;
  } while (after !== undefined && pages.length < 100);
  return pages;
}

/** Drops the trigram indexes of migration 0006, as on a PostgreSQL without pg_trgm. */
const dropTrigramIndexes = async (db: SqlTestDb['db']) => {
  const names = searchIndexes(tableNames());
  await sql`drop index ${sql.id(names.emailTrigram)}, ${sql.id(names.nameTrigram)}`.execute(db);
};

interface Person {
  email: string | null;
  name: string | null;
}
/** Mostly `a` and `b`, so searches match often, with upper case, `@`, space and LIKE's wildcards. */
const unit = fc.constantFrom('a', 'a', 'a', 'a', 'b', 'b', 'b', 'c', '1', 'A', 'B', '@', '.', ' ', '_', '%');
const text = (minLength: number, maxLength: number) => fc.string({ unit, minLength, maxLength });
/** Users with unique emails; every fourth one's name is its email in upper case (a tie of the two keys). */
const people = fc
  .uniqueArray(fc.record({ email: fc.option(text(1, 8), { nil: null }), name: fc.option(text(0, 8), { nil: null }) }), {
    maxLength: 12,
    selector: (p: Person) => (p.email === null ? Symbol() : normalizeEmail(p.email)),
  })
  .map((users) => users.map((u, i) => (i % 4 === 3 && u.email !== null ? { ...u, name: u.email.toUpperCase() } : u)));
const searches = fc.oneof(
  text(1, 4).filter((q) => q.trim() !== ''),
  fc.string({ unit: fc.constantFrom('a', 'b'), minLength: 3, maxLength: 3 }),
);
/** Ids in an order other than the insertion order, so ties are put in id order by the store. */
const idOf = (i: number) => `u${String((i * 7) % 12).padStart(2, '0')}-${i}`;

/**
 * The ids `search` should list, in order: the search order of search-order.ts, with matches inside the email or
 * name when `anywhere(q)`, and the email alone for a search holding `@` when `atMeansEmail`.
 */
function expected(
  users: Person[],
  search: string,
  { anywhere, atMeansEmail }: { anywhere: (q: string) => boolean; atMeansEmail: boolean },
): string[] {
  const q = search.trim().toLowerCase();
  const emailOnly = atMeansEmail && q.includes('@');
  return users
    .flatMap((user, i) => {
      const email = user.email === null ? null : normalizeEmail(user.email);
      const name = emailOnly || user.name === null ? null : user.name.toLowerCase();
      const match = searchMatch(email, name, q, anywhere(q));
      return match ? [{ ...match, id: idOf(i) }] : [];
    })
    .sort(compareSearchMatches)
    .map((match) => match.id);
}

/** Pages through `search` on `adapter` holding `users`: each match once, in order, no empty page after the first. */
const pagingProperty = (
  open: () => Promise<StorageAdapter>,
  options: { anywhere: (q: string) => boolean; atMeansEmail: boolean },
) =>
  fc.asyncProperty(people, searches, fc.integer({ min: 1, max: 5 }), async (users, search, limit) => {
    const adapter = await open();
    for (const [i, user] of users.entries()) await adapter.createUser({ id: idOf(i), ...user });
    const pages = await allPages(adapter, search, limit);
    expect(pages.flat()).toEqual(expected(users, search, options));
    expect(pages.slice(1).every((page) => page.length > 0)).toBe(true);
  });

/** Three letters or digits in a row: what PostgreSQL with pg_trgm matches anywhere. */
const trigram = (q: string) => /[\p{L}\p{N}]{3}/u.test(q);

describe('paging through a search (property)', () => {
  it('the memory adapter lists every match once: prefix matches first, then matches inside', async () => {
    await fc.assert(
      pagingProperty(async () => createMemoryAdapter(), { anywhere: () => true, atMeansEmail: false }),
      {
        numRuns: 200,
      },
    );
  });
});

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

  /** A `listUsers` on `t` emptied before each use. */
  const emptied = (t: SqlTestDb) => async () => {
    await t.db.deleteFrom('auth_users').execute();
    return t.adapter;
  };

  it('lists every match once across pages, in the search order (property)', async () => {
    t = await dbs.open(dialect, log.log);
    const anywhere = dialect === 'postgres' ? trigram : () => false;
    await fc.assert(pagingProperty(emptied(t), { anywhere, atMeansEmail: true }), { numRuns: 100 });
  });

  it.runIf(dialect === 'postgres')(
    'PostgreSQL with pg_trgm lists prefix matches first, then matches inside only, each by key then id, across pages',
    async () => {
      t = await dbs.open(dialect, log.log);
      await t.adapter.createUser({ id: 'a', email: 'Ada@Example.com', name: 'Ada Lovelace' }); // 1: ada lovelace
      await t.adapter.createUser({ id: 'b', email: 'babbage@example.org', name: 'ada@home' }); // 1: ada@home
      await t.adapter.createUser({ id: 'c', email: 'zoe@nevada.test', name: 'Zoe' }); // 2: zoe@nevada.test
      await t.adapter.createUser({ id: 'd', email: 'dan@x.test', name: 'Canada Dry' }); // 2: canada dry
      await t.adapter.createUser({ id: 'e', email: 'adam@x.test', name: 'Lada' }); // 1: adam@x.test
      await t.adapter.createUser({ id: 'f', email: 'f@x.test', name: 'Bob' }); // no match
      expect(await ids(t, 'ADA')).toEqual(['a', 'b', 'e', 'd', 'c']);
      // The second page starts in phase 1 and ends in phase 2; the third continues from a phase-2 cursor.
      expect(await allPages(t.adapter, 'ada', 2)).toEqual([['a', 'b'], ['e', 'd'], ['c']]);
    },
  );

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
      await dropTrigramIndexes(db.db);
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const fresh = { ...db, adapter: (await import('./adapter.js')).createSqlAdapter({ db: db.db, dialect }) };
      expect(await ids(fresh, 'lovelace')).toEqual([]);
      expect(await ids(fresh, 'ada lov')).toEqual(['a']);
      expect(warn.mock.calls.flat().join(' ')).toMatch(/CREATE EXTENSION pg_trgm/);
    },
  );

  // After the test of the pg_trgm hint, logged once per process.
  it.runIf(dialect === 'postgres')(
    'without pg_trgm, lists every prefix match once across pages, in the search order (property)',
    async () => {
      t = await dbs.open(dialect, log.log);
      await dropTrigramIndexes(t.db);
      vi.spyOn(console, 'warn').mockImplementation(() => {});
      const fresh = { ...t, adapter: (await import('./adapter.js')).createSqlAdapter({ db: t.db, dialect }) };
      await fc.assert(pagingProperty(emptied(fresh), { anywhere: () => false, atMeansEmail: true }), { numRuns: 60 });
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
      // From the start, from a phase-1 cursor (or an id cursor) and from a phase-2 one.
      for (const after of [undefined, 'id-005000', JSON.stringify(['person number5000', 'id-005000', 2])]) {
        log.clear();
        await t.adapter.listUsers!({ search, limit: 20, ...(after ? { after } : {}) });
        const selects = log.statements.filter((s) => /^select/i.test(s.sql) && s.sql.includes('auth_users'));
        // A phase-2 cursor where the search has no phase 2 (prefix only) ends the listing without a query.
        if (!after?.endsWith(',2]')) expect(selects.length).toBeGreaterThan(0);
        for (const select of selects) {
          const plan = await queryPlan(t.db, dialect, select);
          expect(fullScan(plan, 'auth_users'), plan.join('\n')).toBeNull();
          // Phase 2 (`LIKE '%q%'`, PostgreSQL with pg_trgm) through the trigram indexes, phase 1 the prefix ones.
          const inside = select.parameters.some((p) => typeof p === 'string' && p.startsWith('%'));
          expect(plan.join('\n'), plan.join('\n')).toMatch(inside ? /_trgm_idx/ : /_email_|_name_/);
        }
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

    it.runIf(dialect === 'postgres')(
      'with pg_trgm, prefix matches of a short prefix matching most users are read in index order from the cursor, sorting none',
      async () => {
        t = await dbs.open(dialect, log.log);
        await seed(t.db);
        await sql`vacuum analyze`.execute(t.db);
        // 'member1' starts 11 111 emails, 'person' every name; the other key's query finds none (PostgreSQL may
        // sort those none), so the query of the key matching them all is the one held to reading in order.
        for (const [search, key, index] of [
          ['member1', '"email_normalized" as "search_key"', 'auth_users_email_pattern_idx'],
          ['person', 'lower("name") as "search_key"', 'auth_users_name_lower_idx'],
        ] as const) {
          const first = await t.adapter.listUsers!({ search, limit: 20 });
          for (const after of [undefined, first.next!]) {
            log.clear();
            await t.adapter.listUsers!({ search, limit: 20, ...(after ? { after } : {}) });
            const selects = log.statements.filter((s) => /^select/i.test(s.sql) && s.sql.includes('auth_users'));
            // The page is filled from phase 1: no phase-2 query.
            expect(selects).toHaveLength(2);
            const plan = await queryPlan(
              t.db,
              dialect,
              selects.find((s) => s.sql.includes(key))!,
            );
            const text = plan.join('\n');
            expect(text, text).toMatch(new RegExp(`Index Scan using ${index}`));
            // Ties of a name are put in id order as they are read (Incremental Sort); no whole sort.
            expect(
              plan.some((line) => /^(->\s*)?Sort\s+\(/.test(line)),
              text,
            ).toBe(false);
          }
        }
      },
    );
  });
});
