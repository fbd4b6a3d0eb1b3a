/**
 * The plugins' SQL storages on Cloudflare D1 (Miniflare's workerd), through the kit's Kysely `D1Dialect`: each
 * passes the same conformance suite as on memory, SQLite and PostgreSQL. Every storage gets fresh tables (its own
 * `tablePrefix`), dropped afterwards.
 */
import { Kysely } from 'kysely';
import { afterAll } from 'vitest';
import { D1Dialect } from '../storage/d1/dialect.js';
import { miniflareD1 } from '../storage/d1/d1-test-support.js';
import { runAdminStorageConformance } from './admin/storage/conformance.js';
import { createSqlAdminStorage } from './admin/storage/sql.js';
import { runAuditStorageConformance } from './audit-log/storage/conformance.js';
import { createSqlAuditStorage } from './audit-log/storage/sql.js';
import { runInvitationStorageConformance } from './organizations/storage/conformance.js';
import { createSqlInvitationStorage } from './organizations/storage/sql.js';
import { runApiKeyStorageConformance } from './api-keys/storage/conformance.js';
import { createSqlApiKeyStorage } from './api-keys/storage/sql.js';
import { runTwoFactorStorageConformance } from './two-factor/storage/conformance.js';
import { createSqlTwoFactorStorage } from './two-factor/storage/sql.js';
import { runTenantStorageConformance } from '../tenant/storage/conformance.js';
import { createSqlTenantStorage } from '../tenant/storage/sql.js';

const d1 = miniflareD1();
afterAll(() => d1.dispose());
const db = new Kysely<any>({ dialect: new D1Dialect({ binding: d1.binding }) });

let runs = 0;
/** A fresh table prefix, and a teardown that drops every table under it. */
function freshPrefix() {
  const prefix = `p${++runs}`;
  const teardown = async () => {
    const { results = [] } = await d1.binding
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ?`)
      .bind(`${prefix}%`)
      .all<{ name: string }>();
    for (const { name } of results) await d1.binding.prepare(`DROP TABLE "${name}"`).run();
  };
  return { prefix, teardown };
}

const on = { dialect: 'sqlite' as const };

runAdminStorageConformance('sql (d1)', async () => {
  const { prefix, teardown } = freshPrefix();
  return { storage: createSqlAdminStorage(db, { ...on, tablePrefix: prefix }), teardown };
});
runAuditStorageConformance('sql (d1)', async () => {
  const { prefix, teardown } = freshPrefix();
  return { storage: createSqlAuditStorage(db, { ...on, tablePrefix: prefix }), teardown };
});
runInvitationStorageConformance('sql (d1)', async () => {
  const { prefix, teardown } = freshPrefix();
  return { storage: createSqlInvitationStorage(db, { ...on, tablePrefix: prefix }), teardown };
});
runTwoFactorStorageConformance('sql (d1)', async () => {
  const { prefix, teardown } = freshPrefix();
  return { storage: createSqlTwoFactorStorage(db, { ...on, tablePrefix: prefix }), teardown };
});
runApiKeyStorageConformance('sql (d1)', async () => {
  const { prefix, teardown } = freshPrefix();
  return { storage: createSqlApiKeyStorage(db, { ...on, tablePrefix: `${prefix}_api_keys` }), teardown };
});
runTenantStorageConformance('sql (d1)', async () => {
  const { prefix, teardown } = freshPrefix();
  return { storage: createSqlTenantStorage(db, { ...on, tablePrefix: `${prefix}_tenants` }), teardown };
});
