import type { Kysely } from 'kysely';
import { OUTBOX, type ChangeDialect } from './dialect.js';

/** One outbox row as stored. Numbers may come back as strings from PostgreSQL BIGINT. */
export interface OutboxRow {
  id: number | string;
  table_name: string;
  operation: string;
  primary_key: string | null;
  old_row: string | null;
  new_row: string | null;
  created_at: number | string;
  attempts: number;
  available_at: number | string;
  claimed_by: string | null;
  claimed_until: number | string | null;
  delivered: string;
  failed_at: number | string | null;
  last_error: string | null;
}

type Db = Kysely<{ [OUTBOX]: OutboxRow }>;

/** Row operations of the consumer, in Kysely's query builder (no raw SQL). */
export class Outbox {
  private readonly db: Db;

  constructor(
    db: Kysely<any>,
    private readonly dialect: ChangeDialect,
  ) {
    this.db = db as Db;
  }

  /**
   * Claims up to `limit` deliverable rows (not failed, due, unclaimed or with
   * an expired lease), oldest first, for `leaseMs`. On PostgreSQL the
   * candidate rows are locked with `FOR UPDATE SKIP LOCKED`, so concurrent
   * consumers claim disjoint rows; SQLite serializes writers.
   */
  async claim(
    token: string,
    limit: number,
    leaseMs: number,
    tables: readonly string[] | undefined,
  ): Promise<OutboxRow[]> {
    const now = Date.now();
    const rows = await this.db
      .updateTable(OUTBOX)
      .set({ claimed_by: token, claimed_until: now + leaseMs })
      .where('id', 'in', (eb) => {
        let candidates = eb
          .selectFrom(OUTBOX)
          .select('id')
          .where('failed_at', 'is', null)
          .where('available_at', '<=', now)
          .where((w) => w.or([w('claimed_until', 'is', null), w('claimed_until', '<', now)]))
          .orderBy('id')
          .limit(limit);
        if (tables) candidates = candidates.where('table_name', 'in', [...tables]);
        return this.dialect === 'postgres' ? candidates.forUpdate().skipLocked() : candidates;
      })
      .returningAll()
      .execute();
    return rows.sort((a, b) => Number(a.id) - Number(b.id));
  }

  /** Extends the lease of the rows `ids` that this consumer still holds to `until` (epoch ms). */
  async renew(token: string, ids: ReadonlyArray<number | string>, until: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable(OUTBOX)
      .set({ claimed_until: until })
      .where('id', 'in', [...ids])
      .where('claimed_by', '=', token)
      .execute();
  }

  /** Deletes a delivered row (only while this consumer holds it). */
  async remove(row: OutboxRow, token: string): Promise<void> {
    await this.db.deleteFrom(OUTBOX).where('id', '=', row.id).where('claimed_by', '=', token).execute();
  }

  /** Releases a row for another attempt at `availableAt`, remembering the triggers already served. */
  async retry(
    row: OutboxRow,
    token: string,
    update: { attempts: number; availableAt: number; delivered: string[]; error: string },
  ): Promise<void> {
    await this.db
      .updateTable(OUTBOX)
      .set({
        attempts: update.attempts,
        available_at: update.availableAt,
        delivered: JSON.stringify(update.delivered),
        last_error: update.error,
        claimed_by: null,
        claimed_until: null,
      })
      .where('id', '=', row.id)
      .where('claimed_by', '=', token)
      .execute();
  }

  /** Marks a row failed for good: it stays in the table with `failed_at` and `last_error`. */
  async fail(
    row: OutboxRow,
    token: string,
    update: { attempts: number; delivered: string[]; error: string },
  ): Promise<void> {
    await this.db
      .updateTable(OUTBOX)
      .set({
        attempts: update.attempts,
        delivered: JSON.stringify(update.delivered),
        last_error: update.error,
        failed_at: Date.now(),
        claimed_by: null,
        claimed_until: null,
      })
      .where('id', '=', row.id)
      .where('claimed_by', '=', token)
      .execute();
  }
}
