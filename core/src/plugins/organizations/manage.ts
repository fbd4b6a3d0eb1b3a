/**
 * Organizations and their members: create, update, delete, list mine, set the active one, list members, change a
 * role, remove, leave and transfer ownership. Every action checks the caller's membership and role.
 * @module
 * @internal
 */
import { authError } from '../../errors/auth-error.js';
import { ORGANIZATION_ERRORS } from './errors.js';
import type { Caller } from '../../routes/account/signed-in.js';
import { storageOf } from '../../routes/account/signed-in.js';
import type { RouteContext } from '../../contract/types.js';
import { emit } from '../../routes/emit.js';
import { StorageConflictError } from '../../storage/types.js';
import { isValidTenantSlug } from '../../tenant/slug.js';
import { parseDisplayName } from '../../input/text.js';
import { TenantNotFoundError } from '../../tenant/errors.js';
import type { Tenant } from '../../tenant/types.js';
import { forbidden, invalid, managerOf, memberOf, organizationKey } from './guards.js';
import type { ResolvedOrganizationsOptions } from './options.js';

/** An organization as the API shows it. */
export const orgView = (t: Tenant) => ({
  id: t.id,
  slug: t.slug,
  name: t.name,
  createdAt: t.createdAt.toISOString(),
});

/** The organization's name: trimmed, NFC, at most 200 characters, no control, bidi or invisible characters. */
function nameOf(value: string | undefined): string {
  const name = parseDisplayName(value, { maxLength: 200 });
  if (!name) throw invalid('`name` is required (at most 200 characters)');
  return name;
}

function slugOf(value: string | undefined, name: string): string {
  const slug = (value?.trim() || name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  if (!isValidTenantSlug(slug)) throw invalid('`slug` must be lowercase letters, digits and hyphens');
  return slug;
}

const slugTaken = () => ORGANIZATION_ERRORS.error('SLUG_TAKEN');

/** `POST /org/create {name, slug?}`: the caller becomes its owner. */
export async function createOrganization(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  if (!(await o.allowCreate(caller.user))) throw forbidden('You may not create organizations');
  const name = nameOf(ctx.body.name);
  let organization: Tenant;
  try {
    organization = await o.tenants.create({ name, slug: slugOf(ctx.body.slug, name) });
  } catch (error) {
    if (error instanceof StorageConflictError) throw slugTaken();
    throw error;
  }
  await o.tenants.addMember({ tenantId: organization.id, userId: caller.user.id, role: o.ownerRole });
  await emit(ctx, 'onOrganizationCreated', { user: caller.user, organization: orgView(organization) });
  return organization;
}

/** `POST /org/update {organizationId, name?, slug?}` (managers). */
export async function updateOrganization(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  const { organization } = await managerOf(o, caller, organizationKey(ctx));
  const patch = {
    ...(ctx.body.name !== undefined ? { name: nameOf(ctx.body.name) } : {}),
    ...(ctx.body.slug !== undefined ? { slug: slugOf(ctx.body.slug, '') } : {}),
  };
  try {
    return (await o.tenants.update(organization.id, patch))!;
  } catch (error) {
    if (error instanceof StorageConflictError) throw slugTaken();
    throw error;
  }
}

/** `POST /org/delete {organizationId}` (the owner role only): members and invitations go with it. */
export async function deleteOrganization(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  const { organization, membership } = await memberOf(o, caller, organizationKey(ctx));
  if (membership.role !== o.ownerRole) throw forbidden('Only an owner may delete the organization');
  await o.invitations.deleteByOrganization(organization.id);
  await o.tenants.delete(organization.id);
  await emit(ctx, 'onOrganizationDeleted', { user: caller.user, organization: orgView(organization) });
}

/** `GET /org/list`: the caller's organizations with their role in each. */
export async function myOrganizations(o: ResolvedOrganizationsOptions, caller: Caller) {
  const memberships = await o.tenants.listMemberships(caller.user.id);
  const out = [];
  for (const m of memberships) {
    const organization = await o.tenants.get(m.tenantId);
    if (organization) out.push({ ...orgView(organization), role: m.role });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * `GET /org/members?organizationId=&after=&limit=` (any member): one page of members (default 50, at most 100, in
 * user id order; `next` is the cursor of the next page, or null) with their name and email, sorted by email within
 * the page. @throws 400 `INVALID_REQUEST` for a bad `limit` or `after`.
 */
export async function listMembers(
  ctx: RouteContext,
  o: ResolvedOrganizationsOptions,
  caller: Caller,
  key: string | null | undefined = organizationKey(ctx),
) {
  const { organization, membership } = await memberOf(o, caller, key);
  const adapter = storageOf(ctx);
  const page = await o.tenants.listMembers(organization.id, memberPageQuery(ctx));
  const members = await Promise.all(
    page.members.map(async (m) => {
      const user = await adapter.getUser(m.userId);
      return {
        userId: m.userId,
        role: m.role,
        email: user?.email ?? null,
        name: user?.name ?? null,
        joinedAt: m.createdAt.toISOString(),
      };
    }),
  );
  members.sort((a, b) => (a.email ?? '').localeCompare(b.email ?? ''));
  return { organization, membership, members, next: page.next };
}

/** The member page a GET asks for (`after`, `limit`; default 50 per page). */
function memberPageQuery(ctx: RouteContext): { limit: number; after?: string } {
  const params = ctx.url.searchParams;
  const limit = params.get('limit');
  const after = params.get('after');
  return { limit: limit === null ? 50 : Number(limit), ...(after === null ? {} : { after }) };
}

/** The member `userId` names in the organization. @throws 400, 404 `USER_NOT_FOUND`. */
async function targetMember(ctx: RouteContext, o: ResolvedOrganizationsOptions, organizationId: string) {
  const userId = ctx.body.userId;
  if (!userId || userId.length > 255) throw invalid('`userId` is required');
  const target = await o.tenants.getMember(organizationId, userId);
  if (!target) throw authError('USER_NOT_FOUND', 'No such member');
  return target;
}

/** `POST /org/members/set-role {organizationId, userId, role}` (managers; only owners grant or take `owner`). */
export async function setMemberRole(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  const { organization, membership } = await managerOf(o, caller, organizationKey(ctx));
  const role = ctx.body.role ?? '';
  if (!o.roles.includes(role)) throw invalid(`\`role\` must be one of ${o.roles.join(', ')}`);
  const target = await targetMember(ctx, o, organization.id);
  if ((role === o.ownerRole || target.role === o.ownerRole) && membership.role !== o.ownerRole)
    throw forbidden('Only an owner may grant or take the owner role');
  // Guarded: taking the owner role from the last owner is refused atomically (409 LAST_OWNER), even when two
  // owners demote each other at once.
  const updated = await o.tenants.addMember(
    { tenantId: organization.id, userId: target.userId, role },
    { keepOwner: o.ownerRole },
  );
  await emit(ctx, 'onMemberRoleChanged', {
    user: { id: target.userId },
    actor: caller.user,
    organization: orgView(organization),
    role,
  });
  return updated;
}

/** `POST /org/members/remove {organizationId, userId}` (managers; owners are removed by owners only). */
export async function removeMember(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  const { organization, membership } = await managerOf(o, caller, organizationKey(ctx));
  const target = await targetMember(ctx, o, organization.id);
  if (target.userId === caller.user.id) throw invalid('Use /org/leave to leave an organization');
  if (target.role === o.ownerRole && membership.role !== o.ownerRole)
    throw forbidden('Only an owner may remove an owner');
  // Guarded as leaving is: two owners removing each other at once leave one of them (the other gets 409 LAST_OWNER).
  if (!(await o.tenants.removeMember(organization.id, target.userId, { keepOwner: o.ownerRole })))
    throw authError('USER_NOT_FOUND', 'No such member');
  await emit(ctx, 'onMemberRemoved', {
    user: { id: target.userId },
    actor: caller.user,
    organization: orgView(organization),
  });
}

/** `POST /org/leave {organizationId}`: the last owner cannot leave (409 `LAST_OWNER`). */
export async function leaveOrganization(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  const { organization } = await memberOf(o, caller, organizationKey(ctx));
  // The check and the removal are one atomic step of the storage (409 LAST_OWNER for the last owner); a
  // membership gone meanwhile (a concurrent leave or removal) is 404 as for a non-member.
  if (!(await o.tenants.removeMember(organization.id, caller.user.id, { keepOwner: o.ownerRole })))
    throw new TenantNotFoundError('Organization not found');
  await emit(ctx, 'onMemberRemoved', { user: caller.user, actor: caller.user, organization: orgView(organization) });
  return organization;
}

/** `POST /org/transfer {organizationId, userId}` (an owner): the member becomes owner, the caller a manager. */
export async function transferOwnership(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  const { organization, membership } = await memberOf(o, caller, organizationKey(ctx));
  if (membership.role !== o.ownerRole) throw forbidden('Only an owner may transfer the organization');
  const target = await targetMember(ctx, o, organization.id);
  if (target.userId === caller.user.id) throw invalid('Transfer to another member');
  const demoted = o.managerRoles.find((r) => r !== o.ownerRole) ?? o.defaultRole;
  await o.tenants.addMember({ tenantId: organization.id, userId: target.userId, role: o.ownerRole });
  // Guarded: if the new owner left or was removed meanwhile, the caller stays owner (409 LAST_OWNER).
  await o.tenants.addMember(
    { tenantId: organization.id, userId: caller.user.id, role: demoted },
    { keepOwner: o.ownerRole },
  );
  await emit(ctx, 'onMemberRoleChanged', {
    user: { id: target.userId },
    actor: caller.user,
    organization: orgView(organization),
    role: o.ownerRole,
  });
}
