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
 *   name; shorter ones match by prefix.
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
import { compareSearchMatches, decodeSearchCursor, encodeSearchCursor } from '../search-order.js';

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

  /** `column` compared and ordered by code point: PostgreSQL's `"C"` collation (SQLite and MySQL's columns are binary). */
  const byCodePoint = (column: Operand) => (dialect === 'postgres' ? sql`${column} collate "C"` : column);

  /** The matcher of `search`: `one(column)` is the condition that `column` matches. */
  const matcher = async (db: Kysely<any>, search: string): Promise<(column: Operand) => RawBuilder<boolean>> => {
    if (dialect === 'sqlite')
      return (column) => sql<boolean>`(${column} >= ${search} and ${column} < ${search + MAX_CHAR})`;
    const pattern = (await mode(db, search)) === 'substring' ? `%${likeLiteral(search)}%` : `${likeLiteral(search)}%`;
    return (column) => sql<boolean>`${column} like ${pattern}`;
  };

  const email = sql.ref('email_normalized');
  const name = dialect === 'mysql' ? sql.ref(MYSQL_NAME_LOWER) : sql`lower(${sql.ref('name')})`;

  return {
    mode,
    /**
     * One page of the users matching `search` in the search order (search-order.ts), after `cursor`, and
     * `next`. One query per key (the email, then the name unless the search holds `@`), each reading its index in
     * order from the cursor and stopping after `limit + 1` rows; the two are merged. A user whose email and name
     * both match is read by the query of its smaller key only. With `columns: 'id'` the rows hold the id only.
     */
    async page<Row extends { id: string }>(
      db: Kysely<any>,
      table: string,
      search: string,
      limit: number,
      after: string | undefined,
      columns: 'all' | 'id' = 'all',
    ): Promise<{ rows: Row[]; next: string | null }> {
      const one = await matcher(db, search);
      const from = after === undefined ? undefined : decodeSearchCursor(after);
      const scans: { key: Operand; other?: Operand; otherWinsTies: boolean }[] = search.includes('@')
        ? [{ key: email, otherWinsTies: false }]
        : [
            { key: email, other: name, otherWinsTies: false },
            { key: name, other: email, otherWinsTies: true },
          ];
      const found: (Row & { search_key: string })[] = [];
      for (const { key, other, otherWinsTies } of scans) {
        const ordered = byCodePoint(key);
        const base = db.selectFrom(table);
        const picked: SelectQueryBuilder<any, any, object> = columns === 'all' ? base.selectAll() : base.select('id');
        let select = picked.select(sql<string>`${key}`.as('search_key')).where(one(key));
        if (other) {
          const before = otherWinsTies ? sql`<=` : sql`<`;
          select = select.where(
            sql<boolean>`not coalesce(${one(other)} and ${byCodePoint(other)} ${before} ${ordered}, false)`,
          );
        }
        if (from)
          select = select
            .where(sql<boolean>`${ordered} >= ${from.key}`)
            .where(sql<boolean>`(${ordered} > ${from.key} or ${sql.ref('id')} > ${from.id})`);
        // The email is unique (and a matched one never null): ordering by it alone spares SQLite a sort of ties.
        select = select.orderBy(ordered);
        if (key !== email) select = select.orderBy('id');
        const rows = await select
          .limit(limit + 1)
          .$castTo<Row & { search_key: string }>()
          .execute();
        found.push(...rows);
      }
      const page = found
        .map((row) => ({ row, key: String(row.search_key), id: String(row.id) }))
        .sort(compareSearchMatches)
        .slice(0, limit + 1);
      const last = page.length > limit ? page[limit - 1] : undefined;
      const rows = page.slice(0, limit).map(({ row }) => {
        const { search_key: _key, ...rest } = row;
        return rest as unknown as Row;
      });
      return { rows, next: last ? encodeSearchCursor(last) : null };
    },
  };
}
