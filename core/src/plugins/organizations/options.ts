/**
 * The options of `organizations()` and their defaults.
 * @module
 * @internal
 */
import { AuthConfigError } from '../../errors.js';
import type { TenantStorage } from '../../tenant/types.js';
import type { StorageAdapter } from '../../storage/types.js';
import { createMemoryTenantStorage } from '../../tenant/storage/memory.js';
import { createSqlTenantStorage } from '../../tenant/storage/sql.js';
import { adapterStorage } from '../plugin-sql.js';
import { createMemoryInvitationStorage } from './storage/memory.js';
import { createSqlInvitationStorage } from './storage/sql.js';
import type { InvitationStorage } from './types.js';

/** What `sendInvitation` receives. `url` is on the app's canonical origin (`baseURL`). */
export interface InvitationMail {
  organization: { id: string; slug: string; name: string };
  inviter: { id: string; email: string | null; name: string | null };
  email: string;
  role: string;
  /** The single-use link: `{baseURL}{basePath}/org/invitation?token=…`. */
  url: string;
  expiresAt: Date;
}

/** Options of `organizations()`. */
export interface OrganizationsOptions {
  /**
   * Organizations and memberships: a `@framework/auth/tenant` storage (SQL, KV, Redis or memory). Default: the auth
   * adapter's own database (`createSqlTenantStorage(adapter.kysely)`, created by `auth.migrate()`; in memory on the
   * memory adapter).
   */
  tenants?: TenantStorage;
  /**
   * Invitations. Default: the auth adapter's own database (`createSqlInvitationStorage(adapter.kysely)`, created by
   * `auth.migrate()`; in memory on the memory adapter).
   */
  invitations?: InvitationStorage;
  /** Sends the invitation mail. A throw answers 502 `EMAIL_SEND_FAILED`; the invitation stays pending for resending. */
  sendInvitation: (mail: InvitationMail) => void | Promise<void>;
  /**
   * The organization roles, highest first. Default `['owner', 'admin', 'member']`. With `createAuth({ rbac })`
   * each must be an RBAC role, so `can(request, user, permission)` checks the member's role there.
   */
  roles?: readonly string[];
  /** The role of an organization's creator, who alone may delete or transfer it. Default `owner`. */
  ownerRole?: string;
  /** Roles that may invite, change roles and remove members. Default `['owner', 'admin']`. */
  managerRoles?: readonly string[];
  /** The role of invitees when the inviter names none. Default `member`. */
  defaultRole?: string;
  /** Invitation lifetime, in seconds. Default 604800 (7 days). */
  invitationMaxAge?: number;
  /** Least time between two sends of one invitation, in seconds. Default 60 (else 429 `RATE_LIMITED`). */
  resendInterval?: number;
  /** Who may create organizations. Default: every signed-in user. */
  allowCreate?: (user: { id: string; role?: string }) => boolean | Promise<boolean>;
  /**
   * Whether the active organization's role counts for a request authenticated by an API key (any credential a
   * plugin reads per request): in the scope's RBAC checks and in `can` / `requirePermission`. Default false: such
   * requests get no organization role. The routes under `basePath` read the session cookie only, whatever this says
   * (a key there: 403 `API_KEY_NOT_ALLOWED`).
   */
  allowApiKeys?: boolean;
}

/** Options with defaults applied. */
export interface ResolvedOrganizationsOptions extends Required<Omit<OrganizationsOptions, 'allowCreate'>> {
  allowCreate: NonNullable<OrganizationsOptions['allowCreate']>;
  /** Builds the default storages from the auth adapter (in `init`) for those not given. */
  bindStorage(adapter: StorageAdapter | undefined): void;
}

const ROLE = /^[A-Za-z0-9_.:-]{1,64}$/;

/** @throws AuthConfigError (`INVALID_CONFIG`) for a missing storage or hook, or inconsistent roles. */
export function resolveOrganizationsOptions(o: OrganizationsOptions): ResolvedOrganizationsOptions {
  const bad = (message: string) => new AuthConfigError(`Invalid auth config: organizations() ${message}`);
  if (!o || (o.tenants !== undefined && typeof o.tenants?.addMember !== 'function'))
    throw bad('needs `tenants` (a @framework/auth/tenant storage)');
  if (o.invitations !== undefined && typeof o.invitations?.settle !== 'function')
    throw bad('needs `invitations` (createSqlInvitationStorage(db) or createMemoryInvitationStorage())');
  if (typeof o.sendInvitation !== 'function') throw bad('needs `sendInvitation({ email, url, … })`');
  const roles = o.roles ?? ['owner', 'admin', 'member'];
  if (!Array.isArray(roles) || roles.length === 0 || roles.some((r) => typeof r !== 'string' || !ROLE.test(r)))
    throw bad('`roles` must be a non-empty list of role ids');
  const ownerRole = o.ownerRole ?? 'owner';
  const managerRoles = o.managerRoles ?? ['owner', 'admin'].filter((r) => roles.includes(r));
  const defaultRole = o.defaultRole ?? 'member';
  for (const [name, role] of [
    ['ownerRole', ownerRole],
    ['defaultRole', defaultRole],
    ...managerRoles.map((r) => ['managerRoles', r]),
  ] as const)
    if (!roles.includes(role)) throw bad(`\`${name}\` "${role}" is not one of \`roles\``);
  const invitationMaxAge = o.invitationMaxAge ?? 7 * 86_400;
  const resendInterval = o.resendInterval ?? 60;
  if (!Number.isInteger(invitationMaxAge) || invitationMaxAge < 60) throw bad('`invitationMaxAge` must be ≥ 60 s');
  if (!Number.isInteger(resendInterval) || resendInterval < 0) throw bad('`resendInterval` must be whole seconds');
  const tenants = adapterStorage('organizations()', o.tenants, {
    sql: (db) => createSqlTenantStorage(db),
    memory: createMemoryTenantStorage,
  });
  const invitations = adapterStorage('organizations()', o.invitations, {
    sql: (db) => createSqlInvitationStorage(db),
    memory: createMemoryInvitationStorage,
  });
  return {
    tenants: tenants.storage,
    invitations: invitations.storage,
    bindStorage(adapter) {
      tenants.bind(adapter);
      invitations.bind(adapter);
    },
    sendInvitation: o.sendInvitation,
    roles,
    ownerRole,
    managerRoles,
    defaultRole,
    invitationMaxAge,
    resendInterval,
    allowCreate: o.allowCreate ?? (() => true),
    allowApiKeys: o.allowApiKeys === true,
  };
}
