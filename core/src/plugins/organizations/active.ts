/**
 * The active organization: an HttpOnly cookie holding its id, always checked against the membership on read, so
 * a cookie naming an organization the user does not belong to selects nothing.
 * @module
 */
import { expiredCookie, readCookie, type OutCookie } from '../../http/cookies.js';
import type { AuthInternals } from '../../contract/types.js';
import type { ResolvedOrganizationsOptions } from './options.js';
import type { Membership } from './guards.js';

/**
 * The name of the active-organization cookie. Pass it to `createTenantResolver(tenants, { strategy: 'cookie',
 * cookieName: ACTIVE_ORGANIZATION_COOKIE })` so `requireMember` reads the same organization.
 */
export const ACTIVE_ORGANIZATION_COOKIE = 'framework.organization';

const attributes = (auth: AuthInternals): OutCookie['options'] => ({
  httpOnly: true,
  secure: auth.config.cookies.sessionToken.options.secure,
  sameSite: 'lax',
  path: '/',
});

/** Selects `organizationId` for this browser (for the session's lifetime at most: 400 days, RFC 6265bis). */
export const activeCookie = (auth: AuthInternals, organizationId: string): OutCookie => ({
  name: ACTIVE_ORGANIZATION_COOKIE,
  value: organizationId,
  options: { ...attributes(auth), maxAge: auth.config.session.maxAge },
});

export const clearActiveCookie = (auth: AuthInternals): OutCookie =>
  expiredCookie(ACTIVE_ORGANIZATION_COOKIE, attributes(auth));

/** The request's active organization and the user's membership of it, or null (none chosen, or not a member). */
export async function activeOf(
  o: ResolvedOrganizationsOptions,
  request: Request,
  userId: string | null | undefined,
): Promise<Membership | null> {
  const key = readCookie(request.headers.get('cookie'), ACTIVE_ORGANIZATION_COOKIE);
  if (!userId || !key || key.length > 128) return null;
  const organization = await o.tenants.get(key);
  const membership = organization ? await o.tenants.getMember(organization.id, userId) : null;
  return organization && membership ? { organization, membership } : null;
}
