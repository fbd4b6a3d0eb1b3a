/**
 * The storage conformance suites of the kit's plugins, for a storage of your own (another database, a KV store):
 * pass the suite a factory of fresh, empty storages and it declares the vitest tests our memory, SQLite,
 * PostgreSQL, MySQL/MariaDB and D1 storages pass (each suite calls `migrate()` twice first).
 *
 * - `twoFactor()`: {@link runTwoFactorStorageConformance};
 * - `apiKeys()`: {@link runApiKeyStorageConformance};
 * - `jwt()`: {@link runJwksStorageConformance};
 * - `admin()`: {@link runAdminStorageConformance};
 * - `auditLog()`: {@link runAuditStorageConformance};
 * - `organizations()` invitations: {@link runInvitationStorageConformance} (its organizations and members:
 *   `runTenantStorageConformance`).
 * - `phoneNumber()`: {@link runPhoneNumberStorageConformance}.
 * - `anonymous()`: {@link runAnonymousStorageConformance}.
 * - `username()`: {@link runUsernameStorageConformance}.
 * @example
 * ```ts
 * // redis-api-keys.test.ts
 * import { runApiKeyStorageConformance } from '@framework/testing/conformance';
 * import { redisApiKeyStorage } from './redis-api-keys.js';
 *
 * runApiKeyStorageConformance('redis', async () => ({ storage: redisApiKeyStorage(await freshClient()) }));
 * ```
 * @module
 */
export {
  runTwoFactorStorageConformance,
  type TwoFactorStorageFactory,
} from '../../../core/src/plugins/two-factor/storage/conformance.js';
export {
  runApiKeyStorageConformance,
  type ApiKeyStorageFactory,
} from '../../../core/src/plugins/api-keys/storage/conformance.js';
export {
  runJwksStorageConformance,
  type JwksConformanceFixture,
} from '../../../core/src/plugins/jwt/storage/conformance.js';
export {
  runAdminStorageConformance,
  type AdminStorageFactory,
} from '../../../core/src/plugins/admin/storage/conformance.js';
export {
  runAuditStorageConformance,
  type AuditStorageFactory,
} from '../../../core/src/plugins/audit-log/storage/conformance.js';
export {
  runInvitationStorageConformance,
  type InvitationStorageFactory,
} from '../../../core/src/plugins/organizations/storage/conformance.js';
export {
  runPhoneNumberStorageConformance,
  type PhoneNumberStorageFactory,
} from '../../../core/src/plugins/phone-number/storage/conformance.js';
export {
  runAnonymousStorageConformance,
  type AnonymousStorageFactory,
} from '../../../core/src/plugins/anonymous/storage/conformance.js';
export {
  runUsernameStorageConformance,
  type UsernameStorageFactory,
} from '../../../core/src/plugins/username/storage/conformance.js';
