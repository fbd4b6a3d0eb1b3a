/**
 * `createSqlInvitationStorage`: invitations in one SQL table, over a Kysely instance you own (SQLite, PostgreSQL or MySQL/MariaDB).
 * @module
 */
import type { Kysely, Migration } from 'kysely';
import { createTable, type DialectTraits, type SqlDialectName } from '../../../storage/sql/dialect.js';
import { pluginSql } from '../../plugin-sql.js';
import type { InvitationRecord, InvitationStatus, InvitationStorage } from '../types.js';

/** Options of {@link createSqlInvitationStorage}. */
export interface SqlInvitationStorageOptions {
  /** Prefix of the table names (letters, digits, `_`). Default `org`: tables `org_invitations`, `org_migrations`. */
  tablePrefix?: string;
  /** Which SQL `db` speaks. Default: detected from the Kysely dialect. */
  dialect?: SqlDialectName;
}

type Int = number | string;
interface Row {
  id: string;
  organization_id: string;
  email: string;
  role: string;
  inviter_id: string;
  token_hash: string;
  status: string;
  expires_at: Int;
  created_at: Int;
  sent_at: Int;
}

const toRecord = (r: Row): InvitationRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  email: r.email,
  role: r.role,
  inviterId: r.inviter_id,
  tokenHash: r.token_hash,
  status: r.status as InvitationStatus,
  expiresAt: new Date(Number(r.expires_at)),
  createdAt: new Date(Number(r.created_at)),
  sentAt: new Date(Number(r.sent_at)),
});

function initial(table: string, traits: DialectTraits): Migration {
  const { int64, key } = traits;
  return {
    async up(db: Kysely<any>) {
      await createTable(db, table, traits)
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('organization_id', key, (c) => c.notNull())
        .addColumn('email', key, (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('inviter_id', 'text', (c) => c.notNull())
        .addColumn('token_hash', key, (c) => c.notNull().unique())
        .addColumn('status', key, (c) => c.notNull())
        .addColumn('expires_at', int64, (c) => c.notNull())
        .addColumn('created_at', int64, (c) => c.notNull())
        .addColumn('sent_at', int64, (c) => c.notNull())
        .execute();
      await db.schema.createIndex(`${table}_org_idx`).on(table).columns(['organization_id', 'status']).execute();
      await db.schema.createIndex(`${table}_email_idx`).on(table).columns(['email', 'status']).execute();
    },
  };
}

/**
 * Creates an invitation storage over one SQL table (`<tablePrefix>_invitations`), for SQLite, MySQL/MariaDB or PostgreSQL through
 * your Kysely instance. `migrate()` (or `auth.migrate()`) creates it; idempotent. Tokens are stored as SHA-256
 * hashes only. The caller owns `db`.
 *
 * @throws TypeError at creation for a malformed `tablePrefix` or an unknown or undetectable dialect.
 * @example
 * ```ts
 * import { createSqlTenantStorage } from '@framework/auth/tenant';
 * import { organizations, createSqlInvitationStorage } from '@framework/auth/plugins/organizations';
 *
 * organizations({ tenants: createSqlTenantStorage(db), invitations: createSqlInvitationStorage(db), sendInvitation });
 * ```
 */
export function createSqlInvitationStorage(
  db: Kysely<any>,
  options: SqlInvitationStorageOptions = {},
): InvitationStorage {
  const { q, prefix, traits, migrate } = pluginSql(db, options, 'org', 'createSqlInvitationStorage');
  const table = `${prefix}_invitations`;
  const one = async (rows: Promise<unknown[]>) => {
    const [row] = (await rows) as Row[];
    return row ? toRecord(row) : null;
  };

  return {
    migrate: () => migrate({ '0001_invitations': initial(table, traits) }),
    async create(r) {
      const row: Row = {
        id: r.id,
        organization_id: r.organizationId,
        email: r.email.toLowerCase(),
        role: r.role,
        inviter_id: r.inviterId,
        token_hash: r.tokenHash,
        status: r.status,
        expires_at: r.expiresAt.getTime(),
        created_at: r.createdAt.getTime(),
        sent_at: r.sentAt.getTime(),
      };
      await q.insertInto(table).values(row).execute();
    },
    get: (id) => one(q.selectFrom(table).selectAll().where('id', '=', id).execute()),
    findByTokenHash: (hash) => one(q.selectFrom(table).selectAll().where('token_hash', '=', hash).execute()),
    async listByOrganization(organizationId, status) {
      let select = q.selectFrom(table).selectAll().where('organization_id', '=', organizationId);
      if (status !== undefined) select = select.where('status', '=', status);
      return ((await select.orderBy('created_at').orderBy('id').execute()) as Row[]).map(toRecord);
    },
    async listPendingByEmail(email) {
      const rows = await q
        .selectFrom(table)
        .selectAll()
        .where('email', '=', email.toLowerCase())
        .where('status', '=', 'pending')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return (rows as Row[]).map(toRecord);
    },
    async settle(id, status) {
      const result = await q
        .updateTable(table)
        .set({ status })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async renew(id, patch) {
      const result = await q
        .updateTable(table)
        .set({ token_hash: patch.tokenHash, sent_at: patch.sentAt.getTime(), expires_at: patch.expiresAt.getTime() })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async deleteByOrganization(organizationId) {
      await q.deleteFrom(table).where('organization_id', '=', organizationId).execute();
    },
  };
}
