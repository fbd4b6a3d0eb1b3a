/**
 * `createSqlSsoStorage`: `sso()` records in three SQL tables over a Kysely instance you own (SQLite, PostgreSQL,
 * MySQL/MariaDB; D1 as SQLite).
 * @module
 */
import type { Kysely, Migration } from 'kysely';
import { createTable, pluginSql, upsert, type DialectTraits, type SqlDialectName } from '../../../plugin-kit.js';
import type { SsoDomainRecord, SsoProviderRecord, SsoStorage } from '../types.js';

/** Options of {@link createSqlSsoStorage}. */
export interface SqlSsoStorageOptions {
  /**
   * Prefix of the table names (letters, digits, `_`). Default `sso`: tables `sso_providers`, `sso_domains`,
   * `sso_once`, `sso_migrations`.
   */
  tablePrefix?: string;
  /** Which SQL `db` speaks. Default: detected from the Kysely dialect. */
  dialect?: SqlDialectName;
}

type Int = number | string;
interface ProviderRow {
  id: string;
  organization_id: string;
  type: string;
  name: string;
  domain: string | null;
  config: string;
  role_mapping: string | null;
  created_at: Int;
}
interface DomainRow {
  domain: string;
  organization_id: string;
  token_hash: string;
  verified_domain: string | null;
  verified_at: Int | null;
  created_at: Int;
}

const toProvider = (r: ProviderRow): SsoProviderRecord => {
  const config = JSON.parse(r.config) as Pick<SsoProviderRecord, 'oidc' | 'saml'>;
  return {
    id: r.id,
    organizationId: r.organization_id,
    type: r.type as SsoProviderRecord['type'],
    name: r.name,
    domain: r.domain,
    oidc: config.oidc ?? null,
    saml: config.saml ?? null,
    roleMapping: r.role_mapping === null ? null : (JSON.parse(r.role_mapping) as SsoProviderRecord['roleMapping']),
    createdAt: new Date(Number(r.created_at)),
  };
};
const toDomain = (r: DomainRow): SsoDomainRecord => ({
  domain: r.domain,
  organizationId: r.organization_id,
  tokenHash: r.token_hash,
  verifiedAt: r.verified_at === null ? null : new Date(Number(r.verified_at)),
  createdAt: new Date(Number(r.created_at)),
});

function initial(prefix: string, traits: DialectTraits): Migration {
  const { int64, key } = traits;
  return {
    async up(db: Kysely<any>) {
      await createTable(db, `${prefix}_providers`, traits)
        .addColumn('id', key, (c) => c.primaryKey())
        .addColumn('organization_id', key, (c) => c.notNull())
        .addColumn('type', key, (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('domain', key)
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('role_mapping', 'text')
        .addColumn('created_at', int64, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex(`${prefix}_providers_org_idx`)
        .on(`${prefix}_providers`)
        .columns(['organization_id'])
        .execute();
      await createTable(db, `${prefix}_domains`, traits)
        .addColumn('domain', key, (c) => c.notNull())
        .addColumn('organization_id', key, (c) => c.notNull())
        .addColumn('token_hash', key, (c) => c.notNull())
        // The domain again while the claim is verified, else null: the unique index lets one organization hold it.
        .addColumn('verified_domain', key, (c) => c.unique())
        .addColumn('verified_at', int64)
        .addColumn('created_at', int64, (c) => c.notNull())
        .addPrimaryKeyConstraint(`${prefix}_domains_pk`, ['domain', 'organization_id'])
        .execute();
      await db.schema
        .createIndex(`${prefix}_domains_org_idx`)
        .on(`${prefix}_domains`)
        .columns(['organization_id'])
        .execute();
      await createTable(db, `${prefix}_once`, traits)
        .addColumn('kind', key, (c) => c.notNull())
        .addColumn('id', key, (c) => c.notNull())
        .addColumn('expires_at', int64, (c) => c.notNull())
        .addPrimaryKeyConstraint(`${prefix}_once_pk`, ['kind', 'id'])
        .execute();
      await db.schema.createIndex(`${prefix}_once_exp_idx`).on(`${prefix}_once`).columns(['expires_at']).execute();
    },
  };
}

/**
 * Creates an {@link SsoStorage} over SQL tables (`<tablePrefix>_providers`, `_domains`, `_once`). `migrate()` (or
 * `auth.migrate()`) creates them; idempotent. Domain verification tokens are stored as SHA-256 hashes, OIDC client
 * secrets as `sso()` encrypted them. Single-use ids are primary keys, so recording one twice fails in the database
 * (atomic across processes). The caller owns `db`.
 *
 * @throws TypeError at creation for a malformed `tablePrefix` or an unknown or undetectable dialect.
 * @example
 * ```ts
 * sso({ organizations: orgs, storage: createSqlSsoStorage(db, { tablePrefix: 'sso' }) });
 * await auth.migrate();
 * ```
 */
export function createSqlSsoStorage(db: Kysely<any>, options: SqlSsoStorageOptions = {}): SsoStorage {
  const { q, prefix, traits, migrate } = pluginSql(db, options, 'sso', 'createSqlSsoStorage');
  const providers = `${prefix}_providers`;
  const domains = `${prefix}_domains`;
  const once = `${prefix}_once`;
  const insertOnce = async (table: string, row: Record<string, unknown>): Promise<boolean> => {
    try {
      await q.insertInto(table).values(row).execute();
      return true;
    } catch (error) {
      if (traits.uniqueViolation(error) !== null) return false;
      throw error;
    }
  };

  return {
    migrate: () => migrate({ '0001_sso': initial(prefix, traits) }),
    createProvider: (p) =>
      insertOnce(providers, {
        id: p.id,
        organization_id: p.organizationId,
        type: p.type,
        name: p.name,
        domain: p.domain?.toLowerCase() ?? null,
        config: JSON.stringify({ oidc: p.oidc, saml: p.saml }),
        role_mapping: p.roleMapping === null ? null : JSON.stringify(p.roleMapping),
        created_at: p.createdAt.getTime(),
      } satisfies ProviderRow),
    async getProvider(id) {
      const [row] = (await q.selectFrom(providers).selectAll().where('id', '=', id).execute()) as ProviderRow[];
      return row ? toProvider(row) : null;
    },
    async listProviders(organizationId) {
      const rows = await q
        .selectFrom(providers)
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return (rows as ProviderRow[]).map(toProvider);
    },
    async updateProvider(p) {
      const result = await q
        .updateTable(providers)
        .set({
          name: p.name,
          domain: p.domain?.toLowerCase() ?? null,
          config: JSON.stringify({ oidc: p.oidc, saml: p.saml }),
          role_mapping: p.roleMapping === null ? null : JSON.stringify(p.roleMapping),
        })
        .where('id', '=', p.id)
        .where('organization_id', '=', p.organizationId)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async deleteProvider(organizationId, id) {
      const result = await q
        .deleteFrom(providers)
        .where('id', '=', id)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async claimDomain(claim) {
      const row: DomainRow = {
        domain: claim.domain.toLowerCase(),
        organization_id: claim.organizationId,
        token_hash: claim.tokenHash,
        verified_domain: null,
        verified_at: null,
        created_at: claim.createdAt.getTime(),
      };
      await upsert(q, traits, domains, { ...row }, ['domain', 'organization_id'], {
        token_hash: claim.tokenHash,
        verified_domain: null,
        verified_at: null,
      }).execute();
    },
    async getDomain(domain, organizationId) {
      const [row] = (await q
        .selectFrom(domains)
        .selectAll()
        .where('domain', '=', domain.toLowerCase())
        .where('organization_id', '=', organizationId)
        .execute()) as DomainRow[];
      return row ? toDomain(row) : null;
    },
    async listDomains(organizationId) {
      const rows = await q
        .selectFrom(domains)
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('domain')
        .execute();
      return (rows as DomainRow[]).map(toDomain);
    },
    async markDomainVerified(domain, organizationId, at) {
      const lower = domain.toLowerCase();
      try {
        await q
          .updateTable(domains)
          .set({ verified_domain: lower, verified_at: at.getTime() })
          .where('domain', '=', lower)
          .where('organization_id', '=', organizationId)
          .execute();
      } catch (error) {
        if (traits.uniqueViolation(error) !== null) return false;
        throw error;
      }
      const [row] = await q
        .selectFrom(domains)
        .select('verified_domain')
        .where('domain', '=', lower)
        .where('organization_id', '=', organizationId)
        .execute();
      return row !== undefined && row.verified_domain === lower;
    },
    async verifiedDomain(domain) {
      const [row] = (await q
        .selectFrom(domains)
        .selectAll()
        .where('verified_domain', '=', domain.toLowerCase())
        .execute()) as DomainRow[];
      return row ? toDomain(row) : null;
    },
    async deleteDomain(domain, organizationId) {
      const result = await q
        .deleteFrom(domains)
        .where('domain', '=', domain.toLowerCase())
        .where('organization_id', '=', organizationId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async rememberOnce(kind, id, untilMs, nowMs) {
      // Expired ids go first (this one's, if past, may then be recorded again).
      await q.deleteFrom(once).where('expires_at', '<=', nowMs).execute();
      return insertOnce(once, { kind, id, expires_at: untilMs });
    },
    async takeOnce(kind, id, nowMs) {
      const result = await q
        .deleteFrom(once)
        .where('kind', '=', kind)
        .where('id', '=', id)
        .where('expires_at', '>', nowMs)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async deleteByOrganization(organizationId) {
      await q.deleteFrom(providers).where('organization_id', '=', organizationId).execute();
      await q.deleteFrom(domains).where('organization_id', '=', organizationId).execute();
    },
  };
}
