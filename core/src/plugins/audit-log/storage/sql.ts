/**
 * `createSqlAuditStorage`: the audit log in one append-only SQL table, over a Kysely instance you own.
 * @module
 */
import type { Kysely, Migration } from 'kysely';
import { createTable, type DialectTraits, type SqlDialectName } from '../../../storage/sql/dialect.js';
import { pluginSql } from '../../plugin-sql.js';
import { cursorOf, resolveAuditQuery } from '../query.js';
import type { AuditEntry, AuditStorage } from '../types.js';

/** Options of {@link createSqlAuditStorage}. */
export interface SqlAuditStorageOptions {
  /** Prefix of the table names (letters, digits, `_`). Default `audit`: tables `audit_log`, `audit_migrations`. */
  tablePrefix?: string;
  /** Which SQL `db` speaks. Default: detected from the Kysely dialect. */
  dialect?: SqlDialectName;
}

interface EntryRow {
  id: string;
  type: string;
  at: number | string;
  user_id: string | null;
  actor_id: string | null;
  ip: string | null;
  user_agent: string | null;
  request_id: string;
  data: string;
}

const toEntry = (r: EntryRow): AuditEntry => ({
  id: r.id,
  type: r.type,
  at: new Date(Number(r.at)),
  userId: r.user_id,
  actorId: r.actor_id,
  ip: r.ip,
  userAgent: r.user_agent,
  requestId: r.request_id,
  data: JSON.parse(r.data) as AuditEntry['data'],
});

function initial(log: string, traits: DialectTraits): Migration {
  const { int64, key } = traits;
  return {
    async up(db: Kysely<any>) {
      await createTable(db, log, traits)
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('type', key, (c) => c.notNull())
        .addColumn('at', int64, (c) => c.notNull())
        .addColumn('user_id', key)
        .addColumn('actor_id', 'text')
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex(`${log}_user_at_idx`).on(log).columns(['user_id', 'at']).execute();
      await db.schema.createIndex(`${log}_at_idx`).on(log).columns(['at', 'id']).execute();
    },
  };
}

/**
 * Indexes for every filter of `list()`, each ending in `(at, id)` so a page is read in order from the index and
 * never sorted: `(type, at, id)` for a type, `(user_id, at, id)` for a user (it replaces `(user_id, at)`, which
 * made a user's whole history sort). Idempotent, so a rerun after a partial downgrade is safe.
 */
function filterIndexes(log: string, traits: DialectTraits): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createIndex(`${log}_type_at_id_idx`)
        .ifNotExists()
        .on(log)
        .columns(['type', 'at', 'id'])
        .execute();
      await db.schema
        .createIndex(`${log}_user_at_id_idx`)
        .ifNotExists()
        .on(log)
        .columns(['user_id', 'at', 'id'])
        .execute();
      const drop = db.schema.dropIndex(`${log}_user_at_idx`).ifExists();
      // MySQL names the table of the index to drop.
      await (traits.name === 'mysql' ? drop.on(log) : drop).execute();
    },
  };
}

/**
 * Creates an audit storage over one append-only table (`<tablePrefix>_log`, indexed by time, by type and time, and by user and time), for SQLite,
 * MySQL/MariaDB or PostgreSQL through your Kysely instance. `migrate()` (or `auth.migrate()`) creates it; idempotent. Times are
 * integer milliseconds. The caller owns `db`.
 *
 * @throws TypeError at creation for a malformed `tablePrefix` or an unknown or undetectable dialect.
 * @example
 * ```ts
 * import { auditLog, createSqlAuditStorage } from '@framework/auth/plugins/audit-log';
 * const auth = createAuth({ ...config, plugins: [auditLog({ storage: createSqlAuditStorage(db) })] });
 * await auth.migrate();
 * ```
 */
export function createSqlAuditStorage(db: Kysely<any>, options: SqlAuditStorageOptions = {}): AuditStorage {
  const { q, prefix, traits, migrate } = pluginSql(db, options, 'audit', 'createSqlAuditStorage');
  const log = `${prefix}_log`;

  return {
    migrate: () => migrate({ '0001_log': initial(log, traits), '0002_filter_indexes': filterIndexes(log, traits) }),
    async append(e) {
      const row: EntryRow = {
        id: e.id,
        type: e.type,
        at: e.at.getTime(),
        user_id: e.userId,
        actor_id: e.actorId,
        ip: e.ip,
        user_agent: e.userAgent,
        request_id: e.requestId,
        data: JSON.stringify(e.data),
      };
      await q.insertInto(log).values(row).execute();
    },
    async list(query) {
      const r = resolveAuditQuery(query);
      let select = q
        .selectFrom(log)
        .selectAll()
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(r.limit + 1);
      if (r.userId !== undefined) select = select.where('user_id', '=', r.userId);
      if (r.type !== undefined) select = select.where('type', '=', r.type);
      if (r.from !== undefined) select = select.where('at', '>=', r.from);
      if (r.to !== undefined) select = select.where('at', '<', r.to);
      if (r.before !== undefined) {
        const { at, id } = r.before;
        // A row comparison, so the index range starts at the cursor (an OR of the two cases walks from the top).
        select = select.where((eb) => eb(eb.refTuple('at', 'id'), '<', eb.tuple(at, id)));
      }
      const rows = (await select.execute()) as EntryRow[];
      const entries = rows.slice(0, r.limit).map(toEntry);
      return { entries, next: rows.length > r.limit ? cursorOf(entries[entries.length - 1]!) : null };
    },
    async purge(before) {
      const result = await q.deleteFrom(log).where('at', '<', before.getTime()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
