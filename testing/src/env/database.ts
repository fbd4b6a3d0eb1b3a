/**
 * A SQL database binding in the shape of the platform's (prepare / bind /
 * first / all / run / raw, `batch`, `exec`), over a private in-memory SQLite.
 * better-sqlite3 is imported on the first query, not before.
 * @module
 */
import type { Database as Sqlite } from 'better-sqlite3';

/** What `run` and `all` return. */
export interface MockDatabaseResult<Row = Record<string, unknown>> {
  results: Row[];
  success: true;
  meta: { changes: number; last_row_id: number };
}

/** A prepared statement; `bind` returns a new statement with the values. */
export interface MockPreparedStatement {
  bind(...values: unknown[]): MockPreparedStatement;
  /** The first row, or one column of it; null when there is no row. */
  first<T = Record<string, unknown>>(column?: string): Promise<T | null>;
  all<Row = Record<string, unknown>>(): Promise<MockDatabaseResult<Row>>;
  run<Row = Record<string, unknown>>(): Promise<MockDatabaseResult<Row>>;
  /** Rows as arrays of values. */
  raw<T = unknown[]>(): Promise<T[]>;
}

/** An in-memory SQL database binding. */
export interface MockDatabase {
  prepare(sql: string): MockPreparedStatement;
  /** Runs statements in one transaction; all or nothing. */
  batch(statements: MockPreparedStatement[]): Promise<MockDatabaseResult[]>;
  /** Runs one or more statements without results. */
  exec(sql: string): Promise<{ count: number }>;
  /** Closes the database (a later query opens a new, empty one). */
  close(): Promise<void>;
}

type Executor = (sqlite: Sqlite) => MockDatabaseResult;

const statements = new WeakMap<MockPreparedStatement, Executor>();

/** D1 stores booleans as 0/1; better-sqlite3 refuses them. */
const toSql = (value: unknown) => (typeof value === 'boolean' ? Number(value) : value);

/**
 * Creates the binding. Nothing is opened until the first query.
 *
 * @example
 * ```ts
 * const db = createMockDatabase();
 * await db.exec('CREATE TABLE posts (id INTEGER PRIMARY KEY, title TEXT)');
 * await db.prepare('INSERT INTO posts (title) VALUES (?)').bind('Hello').run();
 * await db.prepare('SELECT title FROM posts').first('title'); // 'Hello'
 * ```
 */
export function createMockDatabase(): MockDatabase {
  let opened: Promise<Sqlite> | undefined;
  const open = () => (opened ??= import('better-sqlite3').then(({ default: Database }) => new Database(':memory:')));

  function statement(sql: string, values: unknown[]): MockPreparedStatement {
    const execute: Executor = (sqlite) => {
      const prepared = sqlite.prepare(sql);
      if (prepared.reader)
        return {
          results: prepared.all(...values) as Record<string, unknown>[],
          success: true,
          meta: { changes: 0, last_row_id: 0 },
        };
      const info = prepared.run(...values);
      return { results: [], success: true, meta: { changes: info.changes, last_row_id: Number(info.lastInsertRowid) } };
    };
    const self: MockPreparedStatement = {
      bind: (...more) => statement(sql, [...values, ...more.map(toSql)]),
      async first<T>(column?: string) {
        const [row] = execute(await open()).results;
        if (row === undefined) return null;
        return (column === undefined ? row : (row[column] ?? null)) as T | null;
      },
      all: async <Row>() => execute(await open()) as MockDatabaseResult<Row>,
      run: async <Row>() => execute(await open()) as MockDatabaseResult<Row>,
      async raw<T>() {
        const sqlite = await open();
        return sqlite
          .prepare(sql)
          .raw(true)
          .all(...values) as T[];
      },
    };
    statements.set(self, execute);
    return self;
  }

  return {
    prepare: (sql) => statement(sql, []),
    async batch(list) {
      const sqlite = await open();
      const executors = list.map((s) => {
        const execute = statements.get(s);
        if (!execute) throw new TypeError('batch: every statement must come from this database’s prepare()');
        return execute;
      });
      return sqlite.transaction(() => executors.map((execute) => execute(sqlite)))();
    },
    async exec(sql) {
      (await open()).exec(sql);
      return { count: sql.split(';').filter((part) => part.trim() !== '').length };
    },
    async close() {
      const current = opened;
      opened = undefined;
      (await current)?.close();
    },
  };
}
