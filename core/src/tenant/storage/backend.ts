/**
 * The rules every tenant storage shares (validation, ids, timestamps, the
 * one id/slug namespace, membership upserts), written once over a small
 * {@link TenantBackend} that each storage implements.
 * @module
 * @internal
 */
import { forbiddenCharacter } from '../../input/text.js';
import { randomUUID } from 'node:crypto';
import { badRequest } from '../../errors.js';
import { StorageConflictError } from '../../storage/types.js';
import { LastOwnerError, TenantNotFoundError } from '../errors.js';
import { isValidTenantId, isValidTenantSlug } from '../slug.js';
import type { MembershipGuard, PageQuery, Tenant, TenantMembership, TenantPatch, TenantStorage } from '../types.js';

/** What a storage implements. Returned records must be fresh objects. */
export interface TenantBackend {
  migrate(): Promise<void>;
  byId(id: string): Promise<Tenant | null>;
  bySlug(slug: string): Promise<Tenant | null>;
  /** Up to `limit` tenants with an id above `after` (all when undefined), in ascending id order. */
  tenantsAfter(after: string | undefined, limit: number): Promise<Tenant[]>;
  /** @throws StorageConflictError (`field: 'id' | 'slug'`) when either is taken. */
  insert(tenant: Tenant): Promise<void>;
  /**
   * Overwrites `previous` (same id) with `next`. @throws StorageConflictError (`field: 'slug'`) when the new
   * slug is taken.
   */
  replace(next: Tenant, previous: Tenant): Promise<void>;
  /** Deletes the tenant and its memberships; whether it existed. */
  remove(id: string): Promise<boolean>;
  /** Inserts or overwrites the membership of `userId` in `tenantId`. */
  putMember(membership: TenantMembership): Promise<void>;
  member(tenantId: string, userId: string): Promise<TenantMembership | null>;
  /** Up to `limit` members of `tenantId` with a user id above `after`, in ascending user id order. */
  membersAfter(tenantId: string, after: string | undefined, limit: number): Promise<TenantMembership[]>;
  memberships(userId: string): Promise<TenantMembership[]>;
  removeMember(tenantId: string, userId: string): Promise<boolean>;
  /**
   * One atomic step (no other `guardedChange` of the tenant in between): gives `userId` the role `role` in
   * `tenantId` (inserting the membership with `createdAt` when there is none), or removes the membership when
   * `role` is null, unless the member holds `keepOwner`, `role` is not `keepOwner`, and no other member of the
   * tenant holds it. Returns the membership as written (or as removed), null when removing an absent membership,
   * or `'refused'` (nothing written).
   */
  guardedChange(change: GuardedChange): Promise<TenantMembership | null | 'refused'>;
}

/** The input of {@link TenantBackend.guardedChange}. */
export interface GuardedChange {
  tenantId: string;
  userId: string;
  /** The new role, or null to remove the membership. */
  role: string | null;
  /** The role the tenant keeps at least one member of. */
  keepOwner: string;
  /** `createdAt` of a membership this change inserts. */
  createdAt: Date;
}

/** Whether `change` would take `keepOwner` from `current`'s holder (so it needs another holder to proceed). */
export const takesOwner = (current: TenantMembership | null | undefined, change: GuardedChange): boolean =>
  current?.role === change.keepOwner && change.role !== change.keepOwner;

/** Longest accepted tenant name and role, in UTF-16 code units. */
const MAX_NAME = 200;

/**
 * A tenant's name, as given (not normalized: storage keeps what the app passed), when it is non-empty, at most
 * {@link MAX_NAME} long, and free of control, direction and invisible characters (the shared text rules).
 */
function checkName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_NAME || forbiddenCharacter(name, true)) {
    throw badRequest(
      `Tenant name must be a non-empty string of at most ${MAX_NAME} characters, without control, direction or invisible characters`,
    );
  }
  return name;
}

function checkSlug(slug: unknown): string {
  if (!isValidTenantSlug(slug)) {
    throw badRequest(
      'Tenant slug must be 1–63 lowercase letters, digits or inner hyphens (no "--" in the third and fourth places)',
    );
  }
  return slug;
}

/** A JSON round trip of the settings: a plain object, or undefined for none. */
function checkSettings(settings: unknown): Record<string, unknown> | undefined {
  if (settings === undefined || settings === null) return undefined;
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(settings));
  } catch {
    copy = undefined;
  }
  if (copy === null || typeof copy !== 'object' || Array.isArray(copy) || Array.isArray(settings)) {
    throw badRequest('Tenant settings must be a JSON-serializable object');
  }
  return copy as Record<string, unknown>;
}

function checkText(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_NAME || value.includes('\0')) {
    throw badRequest(`Membership ${name} must be a non-empty string of at most ${MAX_NAME} characters`);
  }
  return value;
}

/** A string a lookup can match: non-empty, no NUL. */
const isKey = (value: unknown): value is string => typeof value === 'string' && value !== '' && !value.includes('\0');

const conflict = (field: 'id' | 'slug') =>
  new StorageConflictError(`Tenant ${field} is taken (ids and slugs share one namespace)`, field);

/** A given `createdAt` (a valid Date), else now. */
function joinedAt(value: unknown): Date {
  if (value === undefined) return new Date();
  if (!(value instanceof Date) || Number.isNaN(value.getTime()))
    throw badRequest('Membership createdAt must be a Date');
  return new Date(value);
}

/** The `keepOwner` role of a guard, checked; undefined without one. */
function keeping(guard: MembershipGuard | undefined): string | undefined {
  if (guard === undefined || guard === null || guard.keepOwner === undefined) return undefined;
  return checkText('keepOwner', guard.keepOwner);
}

/** The first `limit` of `items` whose key sorts above `after` (code-unit order, as SQL's binary collations), in key order. */
export function keyPage<T>(items: T[], key: (item: T) => string, after: string | undefined, limit: number): T[] {
  const above = after === undefined ? items : items.filter((item) => key(item) > after);
  return above.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).slice(0, limit);
}

/** The longest page of {@link TenantStorage.list} and `listMembers`. */
const MAX_PAGE = 100;

/** `query` checked, with the default limit (20). @throws AuthError `INVALID_REQUEST` (400). */
function pageQuery(query: PageQuery | undefined): { limit: number; after: string | undefined } {
  if (query === undefined) return { limit: 20, after: undefined };
  if (query === null || typeof query !== 'object') throw badRequest('Page query must be an object');
  const { limit = 20, after } = query;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
    throw badRequest(`Page limit must be an integer from 1 to ${MAX_PAGE}`);
  if (after !== undefined && (!isKey(after) || after.length > 255))
    throw badRequest('Page cursor `after` is malformed');
  return { limit, after };
}

/** Builds the public {@link TenantStorage} over a backend. */
export function tenantStorage(backend: TenantBackend): TenantStorage {
  /** Rejects a slug that another tenant uses as its id, and an id another tenant uses as its slug. */
  async function checkNamespace(id: string, slug: string): Promise<void> {
    const slugAsId = await backend.byId(slug);
    if (slugAsId && slugAsId.id !== id) throw conflict('slug');
    const idAsSlug = await backend.bySlug(id);
    if (idAsSlug && idAsSlug.id !== id) throw conflict('id');
  }

  return {
    migrate: () => backend.migrate(),

    async get(idOrSlug) {
      if (typeof idOrSlug !== 'string') return null;
      const byId = isValidTenantId(idOrSlug) ? await backend.byId(idOrSlug) : null;
      if (byId) return byId;
      const slug = idOrSlug.toLowerCase();
      return isValidTenantSlug(slug) ? backend.bySlug(slug) : null;
    },
    async list(query) {
      const { limit, after } = pageQuery(query);
      const page = await backend.tenantsAfter(after, limit + 1);
      return { tenants: page.slice(0, limit), next: page.length > limit ? page[limit - 1]!.id : null };
    },

    async create(input) {
      if (input === null || typeof input !== 'object') throw badRequest('Tenant input must be an object');
      const id = input.id ?? randomUUID();
      if (!isValidTenantId(id))
        throw badRequest('Tenant id must be 1–128 letters, digits, "_" or "-", starting with a letter or digit');
      const slug = checkSlug(input.slug);
      const now = new Date();
      const settings = checkSettings(input.settings);
      const tenant: Tenant = {
        id,
        slug,
        name: checkName(input.name),
        ...(settings ? { settings } : {}),
        createdAt: now,
        updatedAt: new Date(now),
      };
      await checkNamespace(id, slug);
      await backend.insert(tenant);
      return structuredClone(tenant);
    },

    async update(id, patch: TenantPatch) {
      if (patch === null || typeof patch !== 'object') throw badRequest('Tenant patch must be an object');
      const previous = isValidTenantId(id) ? await backend.byId(id) : null;
      if (!previous) return null;
      const { settings: _old, ...rest } = previous;
      const settings = patch.settings === undefined ? previous.settings : checkSettings(patch.settings);
      const next: Tenant = {
        ...rest,
        slug: patch.slug === undefined ? previous.slug : checkSlug(patch.slug),
        name: patch.name === undefined ? previous.name : checkName(patch.name),
        ...(settings ? { settings } : {}),
        updatedAt: new Date(Math.max(Date.now(), previous.updatedAt.getTime())),
      };
      if (next.slug !== previous.slug) await checkNamespace(id, next.slug);
      await backend.replace(next, previous);
      return structuredClone(next);
    },

    delete: (id) => (isValidTenantId(id) ? backend.remove(id) : Promise.resolve(false)),

    async addMember(input, guard?: MembershipGuard) {
      const tenantId = checkText('tenantId', input?.tenantId);
      const userId = checkText('userId', input.userId);
      const role = checkText('role', input.role);
      const keepOwner = keeping(guard);
      const createdAt = joinedAt(input.createdAt);
      if (!isValidTenantId(tenantId) || !(await backend.byId(tenantId))) throw new TenantNotFoundError();
      if (keepOwner !== undefined) {
        const done = await backend.guardedChange({ tenantId, userId, role, keepOwner, createdAt });
        if (done === 'refused') throw new LastOwnerError();
        return done as TenantMembership; // a role change returns what it wrote
      }
      const existing = await backend.member(tenantId, userId);
      const membership: TenantMembership = { tenantId, userId, role, createdAt: existing?.createdAt ?? createdAt };
      await backend.putMember(membership);
      return structuredClone(membership);
    },
    getMember: (tenantId, userId) =>
      isKey(tenantId) && isKey(userId) ? backend.member(tenantId, userId) : Promise.resolve(null),
    async listMembers(tenantId, query) {
      const { limit, after } = pageQuery(query);
      if (!isKey(tenantId)) return { members: [], next: null };
      const page = await backend.membersAfter(tenantId, after, limit + 1);
      return { members: page.slice(0, limit), next: page.length > limit ? page[limit - 1]!.userId : null };
    },
    listMemberships: (userId) => (isKey(userId) ? backend.memberships(userId) : Promise.resolve([])),
    async removeMember(tenantId, userId, guard?: MembershipGuard) {
      const keepOwner = keeping(guard);
      if (!isKey(tenantId) || !isKey(userId)) return false;
      if (keepOwner === undefined) return backend.removeMember(tenantId, userId);
      const done = await backend.guardedChange({ tenantId, userId, role: null, keepOwner, createdAt: new Date() });
      if (done === 'refused') throw new LastOwnerError();
      return done !== null;
    },
  };
}
