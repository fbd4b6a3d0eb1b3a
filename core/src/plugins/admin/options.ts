/**
 * The options of `admin()` and their defaults.
 * @module
 * @internal
 */
import { AuthConfigError } from '../../errors.js';
import { adapterStorage, type AdapterStorage } from '../plugin-sql.js';
import { createMemoryAdminStorage } from './storage/memory.js';
import { createSqlAdminStorage } from './storage/sql.js';
import type { AdminStorage } from './types.js';

/** Options of `admin()`. */
export interface AdminOptions {
  /**
   * Where bans are kept. Default: the auth adapter's own database (`createSqlAdminStorage(adapter.kysely)`, created
   * by `auth.migrate()`; in memory on the memory adapter).
   */
  storage?: AdminStorage;
  /**
   * Who is an admin: a user whose `role` or `roles` holds one of these (with `createAuth({ rbac })`, a role that
   * inherits one counts too). Default `['admin']`. Ignored when `permission` is set.
   */
  adminRoles?: readonly string[];
  /** Who is an admin, as an RBAC permission (e.g. `users:manage`); needs `createAuth({ rbac })`. */
  permission?: string;
  /** Lifetime of an impersonation session, in seconds. Default 3600 (1 h); it never slides. */
  impersonationMaxAge?: number;
  /** Whether an admin may impersonate another admin. Default false (`CANNOT_IMPERSONATE_ADMIN`). */
  allowImpersonatingAdmins?: boolean;
  /**
   * Whether `auth.extensions.admin.isAdmin` may count a user read from an API key (any credential a plugin reads
   * per request), when the key covers the admin role. Default false: such users are never admins. The routes under
   * `basePath` read the session cookie only, whatever this says (a key there: 403 `API_KEY_NOT_ALLOWED`).
   */
  allowApiKeys?: boolean;
}

/** Options with defaults applied. */
export interface ResolvedAdminOptions {
  storage: AdminStorage;
  /** Builds the default storage from the auth adapter (in `init`) when none was given. */
  bindStorage: AdapterStorage<AdminStorage>['bind'];
  adminRoles: readonly string[];
  permission: string | undefined;
  impersonationMaxAge: number;
  allowImpersonatingAdmins: boolean;
  allowApiKeys: boolean;
}

/** @throws AuthConfigError (`INVALID_CONFIG`) for a missing storage or a bad option. */
export function resolveAdminOptions(options: AdminOptions = {}): ResolvedAdminOptions {
  const bad = (message: string) => new AuthConfigError(`Invalid auth config: admin() ${message}`);
  if (!options || (options.storage !== undefined && typeof options.storage?.getBan !== 'function'))
    throw bad('needs `storage` (createSqlAdminStorage(db) or createMemoryAdminStorage())');
  const adminRoles = options.adminRoles ?? ['admin'];
  if (!Array.isArray(adminRoles) || adminRoles.length === 0 || adminRoles.some((r) => typeof r !== 'string' || !r))
    throw bad('`adminRoles` must be a non-empty list of role ids');
  const maxAge = options.impersonationMaxAge ?? 3600;
  if (!Number.isInteger(maxAge) || maxAge < 60 || maxAge > 86_400)
    throw bad('`impersonationMaxAge` must be whole seconds from 60 to 86400');
  if (options.permission !== undefined && (typeof options.permission !== 'string' || !options.permission))
    throw bad('`permission` must be a non-empty string');
  const { storage, bind } = adapterStorage('admin()', options.storage, {
    sql: (db) => createSqlAdminStorage(db),
    memory: createMemoryAdminStorage,
  });
  return {
    storage,
    bindStorage: bind,
    adminRoles,
    permission: options.permission,
    impersonationMaxAge: maxAge,
    allowImpersonatingAdmins: options.allowImpersonatingAdmins === true,
    allowApiKeys: options.allowApiKeys === true,
  };
}
