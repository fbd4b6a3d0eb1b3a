/**
 * The admin search of `listUsers({ search })`, index-backed on every SQL
 * backend (a `LIKE '%q%'` walks every user):
 *
 * - SQLite and D1: the email (`email_normalized`, unique index) or the
 *   lower-cased name (expression index) starts with the search, as a range
 *   `>= q AND < q || U+10FFFF` (SQLite's `LIKE` uses no index here). A search
 *   holding `@` looks at the email only.
 * - PostgreSQL with `pg_trgm` (GIN trigram indexes, migration 0006): a search
 *   with three letters or digits in a row matches anywhere in the email or
 *   name, prefix matches first (search-order.ts): phase 1 reads the prefix
 *   indexes in order as without `pg_trgm`, and only once it is exhausted
 *   phase 2 reads the rest through the trigram indexes (sorting those
 *   matches); shorter searches match by prefix.
 * - PostgreSQL without `pg_trgm`: by prefix, through `text_pattern_ops` indexes.
 * - MySQL and MariaDB: by prefix (`LIKE 'q%'`, a range on a binary-collated
 *   index): the email through its unique index, the name through the indexed
 *   virtual column `name_lower` (the first 255 characters of `lower(name)`).
 *
 * `%`, `_` and `\` in a search are matched literally.
 * @module
 * @internal
 */
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { SqlDialectName } from './dialect.js';
import type { TableNames } from './tables.js';
import {
  compareSearchMatches,
  decodeSearchCursor,
  encodeSearchCursor,
  type SearchCursor,
  type SearchPhase,
} from '../search-order.js';

/** A column or expression of the users table. */
type Operand = RawBuilder<unknown> | ReturnType<typeof sql.ref>;

/** Names of the search indexes of migration 0006. */
export const searchIndexes = (t: TableNames) => ({
  /** SQLite: `lower(name)`; PostgreSQL: `lower(name) text_pattern_ops`; MySQL: the `name_lower` column. */
  namePrefix: `${t.users}_name_lower_idx`,
  /** PostgreSQL: `email_normalized text_pattern_ops`. */
  emailPrefix: `${t.users}_email_pattern_idx`,
  /** PostgreSQL with pg_trgm: GIN trigram indexes. */
  emailTrigram: `${t.users}_email_trgm_idx`,
  nameTrigram: `${t.users}_name_trgm_idx`,
});

/** MySQL/MariaDB: the indexed virtual column holding `left(lower(name), 255)` (migration 0006). */
export const MYSQL_NAME_LOWER = 'name_lower';

/** Above every character: `q || MAX_CHAR` bounds the strings starting with `q`. */
const MAX_CHAR = '\u{10FFFF}';
/** Three letters or digits in a row: pg_trgm then has a trigram to look up. */
const TRIGRAM = /[\p{L}\p{N}]{3}/u;
/** `LIKE` with PostgreSQL's default escape character, `\`, which keeps its prefix and trigram index use. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** How a search is matched, for the store and its tests. */
export type SearchMode = 'prefix' | 'substring';

/** Logs the pg_trgm hint once per process. */
let hinted = false;
const HINT =
  '[auth] listUsers({ search }) matches emails and names by prefix on this PostgreSQL: enable substring search ' +
  'with `CREATE EXTENSION pg_trgm` and the two trigram indexes in core/src/plugins/admin/README.md ("Search").';

/**
 * The user search of one store: `page(db, table, search, limit, after)` is one page of a search already trimmed
 * and lower-cased (see `resolveListUsersQuery`) in the search order (search-order.ts); `mode` says how it is
 * matched.
 */
export function userSearch(dialect: SqlDialectName, t: TableNames) {
  const names = searchIndexes(t);
  let trigram: Promise<boolean> | undefined;
  /** Whether the trigram indexes exist (checked once per store; a failed check is retried). */
  const hasTrigram = (db: Kysely<any>) =>
    (trigram ??= sql<{ ok: boolean }>`select to_regclass(${names.nameTrigram}) is not null as ok`
      .execute(db)
      .then(({ rows }) => {
        const ok = rows[0]?.ok === true;
        if (!ok && !hinted) {
          hinted = true;
          console.warn(HINT);
        }
        return ok;
      })
      .catch((error: unknown) => {
        trigram = undefined;
        throw error;
      }));

  /** How `search` is matched on `db`. */
  const mode = async (db: Kysely<any>, search: string): Promise<SearchMode> => {
    if (dialect !== 'postgres' || !TRIGRAM.test(search)) return 'prefix';
    return (await hasTrigram(db)) ? 'substring' : 'prefix';
  };

  /**
   * Comparisons by code point in `phase`. On PostgreSQL phase 1 uses the byte-wise operators of
   * `text_pattern_ops` (`~<~`, …), the operators of the prefix indexes, so a range from the cursor and
   * `order by … using ~<~` read those indexes in order; phase 2 compares under `collate "C"` (the same order),
   * which matches no btree index, so the planner reads the trigram indexes rather than walking a prefix index
   * in order through every user. SQLite and MySQL's columns are binary already.
   */
  const codePoints = (phase: SearchPhase) => {
    const pattern = dialect === 'postgres' && phase === 1;
    const c = (column: Operand) => (dialect === 'postgres' && !pattern ? sql`${column} collate "C"` : column);
    const op = (plain: '<' | '<=' | '>' | '>=') => sql.raw(pattern ? `~${plain}~` : plain);
    return {
      /** `a <op> b` by code point. */
      compare: (a: Operand, plain: '<' | '<=' | '>' | '>=', b: Operand | string) =>
        sql<boolean>`${c(a)} ${op(plain)} ${typeof b === 'string' ? b : c(b)}`,
      /** `column` in ascending code point order, for `orderBy`. */
      ascending: (column: Operand) => (pattern ? sql`${column} using ~<~` : c(column)),
    };
  };

  /** `column` starts with `search`: a range on SQLite (whose `LIKE` uses no index here), `LIKE 'q%'` elsewhere. */
  const startsWith =
    (search: string) =>
    (column: Operand): RawBuilder<boolean> =>
      dialect === 'sqlite'
        ? sql<boolean>`(${column} >= ${search} and ${column} < ${search + MAX_CHAR})`
        : sql<boolean>`${column} like ${`${likeLiteral(search)}%`}`;
  /** `column` holds `search` (PostgreSQL with pg_trgm only). */
  const holds =
    (search: string) =>
    (column: Operand): RawBuilder<boolean> =>
      sql<boolean>`${column} like ${`%${likeLiteral(search)}%`}`;

  const email = sql.ref('email_normalized');
  const name = dialect === 'mysql' ? sql.ref(MYSQL_NAME_LOWER) : sql`lower(${sql.ref('name')})`;

  return {
    mode,
    /**
     * One page of the users matching `search` in the search order (search-order.ts), after `cursor`, and
     * `next`. Phase 1 (prefix matches) runs one query per key (the email, then the name unless the search holds
     * `@`), each reading its prefix index in order from the cursor and stopping after `limit + 1` rows; the two
     * are merged. Only when phase 1 has fewer than `limit + 1` rows left and the search matches anywhere (see
     * `mode`), phase 2 fills the page the same way from the users matching inside but by prefix in neither key,
     * through the trigram indexes. A user whose email and name both match is read by the query of its smaller
     * key only. With `columns: 'id'` the rows hold the id only.
     */
    async page<Row extends { id: string }>(
      db: Kysely<any>,
      table: string,
      search: string,
      limit: number,
      after: string | undefined,
      columns: 'all' | 'id' = 'all',
    ): Promise<{ rows: Row[]; next: string | null }> {
      const anywhere = (await mode(db, search)) === 'substring';
      const from = after === undefined ? undefined : decodeSearchCursor(after);
      const prefix = startsWith(search);
      const inside = holds(search);
      const byEmailOnly = search.includes('@');
      const found: SearchRow<Row>[] = [];
      if (from === undefined || from.phase === 1) {
        const rows = await scanPhase<Row>(db, table, columns, 1, limit + 1, from, byEmailOnly, prefix);
        found.push(...rows);
      }
      if (anywhere && found.length <= limit) {
        const rows = await scanPhase<Row>(
          db,
          table,
          columns,
          2,
          limit + 1 - found.length,
          from?.phase === 2 ? from : undefined,
          byEmailOnly,
          inside,
          prefix,
        );
        found.push(...rows);
      }
      const last = found.length > limit ? found[limit - 1] : undefined;
      const rows = found.slice(0, limit).map(({ row }) => {
        const { search_key: _key, ...rest } = row;
        return rest as unknown as Row;
      });
      return { rows, next: last ? encodeSearchCursor(last) : null };
    },
  };

  /**
   * Up to `limit` users of one phase after `from`, in the search order: one query per key, merged. `matches` is
   * the phase's condition on a key; `earlier(column)` (phase 2) the condition on either key that puts the user in
   * phase 1 instead.
   */
  async function scanPhase<Row extends { id: string }>(
    db: Kysely<any>,
    table: string,
    columns: 'all' | 'id',
    phase: SearchPhase,
    limit: number,
    from: SearchCursor | undefined,
    byEmailOnly: boolean,
    matches: (column: Operand) => RawBuilder<boolean>,
    earlier?: (column: Operand) => RawBuilder<boolean>,
  ): Promise<SearchRow<Row>[]> {
    const scans: { key: Operand; other?: Operand; otherWinsTies: boolean }[] = byEmailOnly
      ? [{ key: email, otherWinsTies: false }]
      : [
          { key: email, other: name, otherWinsTies: false },
          { key: name, other: email, otherWinsTies: true },
        ];
    const { compare, ascending } = codePoints(phase);
    const found: SearchRow<Row>[] = [];
    for (const { key, other, otherWinsTies } of scans) {
      const base = db.selectFrom(table);
      const picked: SelectQueryBuilder<any, any, object> = columns === 'all' ? base.selectAll() : base.select('id');
      let select = picked.select(sql<string>`${key}`.as('search_key')).where(matches(key));
      if (earlier) {
        select = select.where(sql<boolean>`not ${earlier(key)}`);
        if (other) select = select.where(sql<boolean>`not coalesce(${earlier(other)}, false)`);
      }
      if (other) {
        const before = compare(other, otherWinsTies ? '<=' : '<', key);
        select = select.where(sql<boolean>`not coalesce(${matches(other)} and ${before}, false)`);
      }
      if (from)
        select = select
          .where(compare(key, '>=', from.key))
          .where(sql<boolean>`(${compare(key, '>', from.key)} or ${sql.ref('id')} > ${from.id})`);
      // The email is unique (and a matched one never null): ordering by it alone spares SQLite a sort of ties.
      select = select.orderBy(ascending(key));
      if (key !== email) select = select.orderBy('id');
      const rows = await select.limit(limit).$castTo<Row & { search_key: string }>().execute();
      found.push(...rows.map((row) => ({ row, phase, key: String(row.search_key), id: String(row.id) })));
    }
    return found.sort(compareSearchMatches).slice(0, limit);
  }
}

/** A row read by a search query, with where it sorts. */
interface SearchRow<Row> extends SearchCursor {
  row: Row & { search_key: string };
}
