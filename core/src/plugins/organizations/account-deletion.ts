/**
 * Deleting a user who belongs to organizations (`POST /account/delete`, `admin()`'s remove-user) without ever
 * leaving an organization with no owner, even while co-owners leave, are removed or delete their accounts at the
 * same moment.
 * @module
 * @internal
 */
import { TenantNotFoundError } from '../../tenant/errors.js';
import type { TenantMembership } from '../../tenant/types.js';
import type { ResolvedOrganizationsOptions } from './options.js';

/**
 * The `beforeUserDelete` hook: removes every membership of `userId` through the storage's guarded removal
 * (`removeMember(..., { keepOwner: ownerRole })`), whose check and write are one atomic step, instead of counting
 * owners first and removing later (two co-owners deleting their accounts at once would each see the other and
 * both go).
 *
 * All or nothing: owner memberships go first, so a refusal usually comes before anything else is touched; when
 * one is refused (409 `LAST_OWNER`), the memberships already removed are put back (same role and join time; one
 * whose organization was deleted meanwhile is skipped) and the deletion stops. Returns the same restore, which the
 * deletion sequence runs when a later step refuses (another hook, the `onDeleteUser` callback). While a deletion
 * is under way its memberships are gone, so a co-owner's concurrent leave or deletion may be refused even if this
 * deletion is refused afterwards: a refusal errs on the side of keeping an owner.
 * @throws LastOwnerError (`LAST_OWNER`, 409) while `userId` is the only owner of an organization; nothing changed.
 */
export async function leaveOrganizationsBeforeDeletion(
  o: ResolvedOrganizationsOptions,
  userId: string,
): Promise<() => Promise<void>> {
  const owner = (m: TenantMembership) => (m.role === o.ownerRole ? 0 : 1);
  const memberships = (await o.tenants.listMemberships(userId)).sort((a, b) => owner(a) - owner(b));
  const removed: TenantMembership[] = [];
  const restore = async () => {
    for (const m of removed.splice(0).reverse()) {
      try {
        await o.tenants.addMember(m);
      } catch (error) {
        if (!(error instanceof TenantNotFoundError)) throw error;
      }
    }
  };
  try {
    for (const m of memberships)
      if (await o.tenants.removeMember(m.tenantId, userId, { keepOwner: o.ownerRole })) removed.push(m);
  } catch (error) {
    await restore();
    throw error;
  }
  return restore;
}
