/**
 * Webhook delivery ids remembered in D1, so a replayed delivery runs once across every isolate of the Worker
 * (an isolate's memory is not shared, and isolates come and go).
 * @module
 */
import type { D1DatabaseLike } from '@framework/auth';
import type { ReplayStore } from '@framework/trigger/verifiers';

/** The table of remembered delivery ids. */
export const DELIVERIES_TABLE = 'webhook_deliveries';

/** Creates the table; idempotent. */
export async function migrateDeliveries(db: D1DatabaseLike): Promise<void> {
  await db
    .prepare(
      `CREATE TABLE IF NOT EXISTS ${DELIVERIES_TABLE} (id TEXT PRIMARY KEY, done INTEGER NOT NULL, expires_at INTEGER NOT NULL)`,
    )
    .run();
}

/**
 * A replay store on D1: `claim` inserts the id unless a live row holds it (an expired row is replaced in the
 * same statement), `complete` keeps it as done for the replay window, `release` forgets it.
 * @example
 * ```ts
 * standardWebhooksVerifier({ secret, replay: d1ReplayStore(env.DB) })
 * ```
 */
export function d1ReplayStore(db: D1DatabaseLike, now: () => number = Date.now): ReplayStore {
  return {
    async claim(id, leaseSeconds) {
      const at = now();
      const inserted = await db
        .prepare(
          `INSERT INTO ${DELIVERIES_TABLE} (id, done, expires_at) VALUES (?, 0, ?)
           ON CONFLICT (id) DO UPDATE SET done = 0, expires_at = excluded.expires_at
           WHERE ${DELIVERIES_TABLE}.expires_at <= ?`,
        )
        .bind(id, at + leaseSeconds * 1000, at)
        .run();
      if ((inserted.meta?.changes ?? 0) > 0) return 'claimed';
      const row = await db
        .prepare(`SELECT done FROM ${DELIVERIES_TABLE} WHERE id = ?`)
        .bind(id)
        .first<{ done: number }>();
      return row?.done ? 'done' : 'in-progress';
    },
    async complete(id, ttlSeconds) {
      await db
        .prepare(`UPDATE ${DELIVERIES_TABLE} SET done = 1, expires_at = ? WHERE id = ?`)
        .bind(now() + ttlSeconds * 1000, id)
        .run();
    },
    async release(id) {
      await db.prepare(`DELETE FROM ${DELIVERIES_TABLE} WHERE id = ?`).bind(id).run();
    },
  };
}
