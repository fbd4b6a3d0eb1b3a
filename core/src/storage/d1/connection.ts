/**
 * One Kysely connection over a D1 binding. D1 has no interactive
 * transactions (no `BEGIN`/`COMMIT` over the wire), so a Kysely transaction is
 * a write batch: its statements are queued and sent as one `batch()`, which
 * D1 runs atomically, at commit. Reads (a `SELECT` or anything with
 * `RETURNING`) inside a transaction are refused, because their results would
 * not exist until the commit.
 * @internal
 * @module
 */
import { SelectQueryNode, type CompiledQuery, type DatabaseConnection, type QueryResult } from 'kysely';
import type { D1DatabaseLike, D1ResultLike, D1StatementLike, D1Value } from './binding.js';
import { normalizeD1Error } from './errors.js';

/** Whether a query yields rows (so it cannot be deferred into a batch). */
function readsRows(query: CompiledQuery): boolean {
  const node = query.query as { kind?: string; returning?: unknown };
  return SelectQueryNode.is(query.query) || node.kind === 'RawNode' || node.returning !== undefined;
}

function toQueryResult<Row>(result: D1ResultLike<Row>): QueryResult<Row> {
  const changes = result.meta?.changes;
  return {
    rows: result.results ?? [],
    ...(typeof changes === 'number' ? { numAffectedRows: BigInt(changes) } : {}),
  };
}

export class D1Connection implements DatabaseConnection {
  /** Statements of the open transaction, or null outside one. */
  #batch: D1StatementLike[] | null = null;

  constructor(private readonly binding: D1DatabaseLike) {}

  #prepare(query: CompiledQuery): D1StatementLike {
    return this.binding.prepare(query.sql).bind(...(query.parameters as D1Value[]));
  }

  async executeQuery<Row>(query: CompiledQuery): Promise<QueryResult<Row>> {
    if (this.#batch) {
      if (readsRows(query))
        throw new Error('createD1Adapter: a D1 transaction is a write-only batch; run reads outside it');
      this.#batch.push(this.#prepare(query));
      return { rows: [] };
    }
    try {
      return toQueryResult(await this.#prepare(query).all<Row>());
    } catch (error) {
      throw normalizeD1Error(error);
    }
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<Row>(): AsyncIterableIterator<QueryResult<Row>> {
    throw new Error('createD1Adapter: D1 does not stream query results');
  }

  begin(): void {
    if (this.#batch) throw new Error('createD1Adapter: nested transactions are not supported on D1');
    this.#batch = [];
  }

  async commit(): Promise<void> {
    const statements = this.#batch ?? [];
    this.#batch = null;
    if (statements.length === 0) return;
    try {
      await this.binding.batch(statements);
    } catch (error) {
      throw normalizeD1Error(error);
    }
  }

  rollback(): void {
    this.#batch = null;
  }
}
