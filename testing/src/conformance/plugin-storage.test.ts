/**
 * The plugin storage suites as published by `@framework/testing/conformance`, run over each plugin's SQL storage
 * built on a SQLite adapter's own connection (`adapter.kysely`, what a plugin given no `storage` uses) and over the
 * memory storages.
 */
import { createSqliteAdapter, type StorageAdapter } from '@framework/auth';
import { createMemoryAdminStorage, createSqlAdminStorage } from '@framework/auth/plugins/admin';
import { createMemoryApiKeyStorage, createSqlApiKeyStorage } from '@framework/auth/plugins/api-keys';
import { createMemoryAuditStorage, createSqlAuditStorage } from '@framework/auth/plugins/audit-log';
import { createMemoryJwksStorage, createSqlJwksStorage } from '@framework/auth/plugins/jwt';
import { createMemoryInvitationStorage, createSqlInvitationStorage } from '@framework/auth/plugins/organizations';
import { createMemoryTwoFactorStorage, createSqlTwoFactorStorage } from '@framework/auth/plugins/two-factor';
import type { Kysely } from 'kysely';
import {
  runAdminStorageConformance,
  runApiKeyStorageConformance,
  runAuditStorageConformance,
  runInvitationStorageConformance,
  runJwksStorageConformance,
  runTwoFactorStorageConformance,
} from '../conformance.js';

/** A fresh storage made by `make` on a new in-memory SQLite adapter's own connection; closed after the test. */
function onAdapter<S>(make: (db: Kysely<any>) => S) {
  return async () => {
    const adapter: StorageAdapter = createSqliteAdapter({ filename: ':memory:' });
    return { storage: make(await adapter.loadKysely!()), teardown: () => adapter.close!() };
  };
}

runTwoFactorStorageConformance('memory', async () => ({ storage: createMemoryTwoFactorStorage() }));
runTwoFactorStorageConformance(
  'sql on adapter.kysely',
  onAdapter((db) => createSqlTwoFactorStorage(db)),
);
runApiKeyStorageConformance('memory', async () => ({ storage: createMemoryApiKeyStorage() }));
runApiKeyStorageConformance(
  'sql on adapter.kysely',
  onAdapter((db) => createSqlApiKeyStorage(db)),
);
runJwksStorageConformance('memory', async () => ({ storage: createMemoryJwksStorage() }));
runJwksStorageConformance(
  'sql on adapter.kysely',
  onAdapter((db) => createSqlJwksStorage(db)),
);
runAdminStorageConformance('memory', async () => ({ storage: createMemoryAdminStorage() }));
runAdminStorageConformance(
  'sql on adapter.kysely',
  onAdapter((db) => createSqlAdminStorage(db)),
);
runAuditStorageConformance('memory', async () => ({ storage: createMemoryAuditStorage() }));
runAuditStorageConformance(
  'sql on adapter.kysely',
  onAdapter((db) => createSqlAuditStorage(db)),
);
runInvitationStorageConformance('memory', async () => ({ storage: createMemoryInvitationStorage() }));
runInvitationStorageConformance(
  'sql on adapter.kysely',
  onAdapter((db) => createSqlInvitationStorage(db)),
);
