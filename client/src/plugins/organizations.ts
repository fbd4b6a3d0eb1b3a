/**
 * `@framework/auth-client/plugins/organizations`: browser functions for every route of the server's
 * `organizations()` plugin. Each resolves to an {@link AccountResult} and never rejects.
 * @module
 */
import { authRequest, type AccountResult, type AuthClientOptions } from '@framework/auth-client';

/** An organization; `role` is the caller's role in it where a list or the active one carries it. */
export interface Organization {
  id: string;
  slug: string;
  name: string;
  createdAt: string;
  role?: string;
}

/** A member of an organization. */
export interface OrganizationMember {
  userId: string;
  role: string;
  email: string | null;
  name: string | null;
  joinedAt: string;
}

/** A pending invitation (never its token). */
export interface OrganizationInvitation {
  id: string;
  organizationId: string;
  email: string;
  role: string;
  status: 'pending' | 'accepted' | 'declined' | 'revoked';
  expiresAt: string;
  sentAt: string;
  /** On `listMyInvitations` only. */
  organization?: Organization;
}

const q = (path: string, organizationId: string) => `${path}?organizationId=${encodeURIComponent(organizationId)}`;

/**
 * Creates an organization (the caller owns it, and it becomes active): `POST {basePath}/org/create`.
 * @returns error `SLUG_TAKEN` (409).
 * @example
 * ```ts
 * const { data } = await createOrganization({ name: 'Acme' });
 * ```
 */
export const createOrganization = (input: { name: string; slug?: string }, options?: AuthClientOptions) =>
  authRequest<{ organization: Organization }>('/org/create', options, input);

/**
 * Renames an organization (managers): `POST {basePath}/org/update`.
 * @example
 * ```ts
 * await updateOrganization({ organizationId, name: 'Acme Ltd' });
 * ```
 */
export const updateOrganization = (
  input: { organizationId: string; name?: string; slug?: string },
  options?: AuthClientOptions,
) => authRequest<{ organization: Organization }>('/org/update', options, input);

/**
 * Deletes an organization (owners): `POST {basePath}/org/delete`.
 * @example
 * ```ts
 * await deleteOrganization({ organizationId });
 * ```
 */
export const deleteOrganization = (input: { organizationId: string }, options?: AuthClientOptions) =>
  authRequest('/org/delete', options, input);

/**
 * The caller's organizations with their role: `GET {basePath}/org/list`.
 * @example
 * ```ts
 * const { data } = await listOrganizations();
 * ```
 */
export const listOrganizations = (
  options?: AuthClientOptions,
): Promise<AccountResult<{ organizations: Organization[] }>> => authRequest('/org/list', options);

/**
 * The active organization (or null): `GET {basePath}/org/active`.
 * @example
 * ```ts
 * const { data } = await getActiveOrganization();
 * ```
 */
export const getActiveOrganization = (options?: AuthClientOptions) =>
  authRequest<{ organization: Organization | null }>('/org/active', options);

/**
 * Chooses the active organization (`organizationId` omitted: none): `POST {basePath}/org/set-active`.
 * @example
 * ```ts
 * await setActiveOrganization({ organizationId });
 * ```
 */
export const setActiveOrganization = (input: { organizationId?: string }, options?: AuthClientOptions) =>
  authRequest<{ organization: Organization | null }>('/org/set-active', options, input, true);

/**
 * One page of an organization's members: `GET {basePath}/org/members`. `limit` is 1–100 (default 50); `after` is
 * the `next` of the previous page, which is null on the last page.
 * @returns error `INVALID_REQUEST` (400) for a bad `limit` or `after`.
 * @example
 * ```ts
 * let { data } = await listMembers({ organizationId });
 * while (data?.next) ({ data } = await listMembers({ organizationId, after: data.next }));
 * ```
 */
export const listMembers = (
  input: { organizationId: string; limit?: number; after?: string },
  options?: AuthClientOptions,
) =>
  authRequest<{ organization: Organization; members: OrganizationMember[]; next: string | null }>(
    q('/org/members', input.organizationId) +
      (input.limit === undefined ? '' : `&limit=${input.limit}`) +
      (input.after === undefined ? '' : `&after=${encodeURIComponent(input.after)}`),
    options,
  );

/**
 * Sets a member's role (managers): `POST {basePath}/org/members/set-role`.
 * @returns errors `FORBIDDEN` (403), `LAST_OWNER` (409).
 * @example
 * ```ts
 * await setMemberRole({ organizationId, userId, role: 'admin' });
 * ```
 */
export const setMemberRole = (
  input: { organizationId: string; userId: string; role: string },
  options?: AuthClientOptions,
) => authRequest<{ userId: string; role: string }>('/org/members/set-role', options, input);

/**
 * Removes a member (managers): `POST {basePath}/org/members/remove`.
 * @example
 * ```ts
 * await removeMember({ organizationId, userId });
 * ```
 */
export const removeMember = (input: { organizationId: string; userId: string }, options?: AuthClientOptions) =>
  authRequest('/org/members/remove', options, input);

/**
 * Leaves an organization: `POST {basePath}/org/leave`.
 * @returns error `LAST_OWNER` (409).
 * @example
 * ```ts
 * await leaveOrganization({ organizationId });
 * ```
 */
export const leaveOrganization = (input: { organizationId: string }, options?: AuthClientOptions) =>
  authRequest('/org/leave', options, input);

/**
 * Makes a member the owner (owners): `POST {basePath}/org/transfer`.
 * @example
 * ```ts
 * await transferOwnership({ organizationId, userId });
 * ```
 */
export const transferOwnership = (input: { organizationId: string; userId: string }, options?: AuthClientOptions) =>
  authRequest('/org/transfer', options, input);

/**
 * Invites someone by email (managers): `POST {basePath}/org/invite`.
 * @returns errors `ALREADY_MEMBER` (409), `EMAIL_SEND_FAILED` (502).
 * @example
 * ```ts
 * await inviteMember({ organizationId, email: 'grace@example.com', role: 'member' });
 * ```
 */
export const inviteMember = (
  input: { organizationId: string; email: string; role?: string },
  options?: AuthClientOptions,
) => authRequest<{ invitation: OrganizationInvitation }>('/org/invite', options, input);

/**
 * The pending invitations of an organization (managers): `GET {basePath}/org/invitations`.
 * @example
 * ```ts
 * const { data } = await listInvitations({ organizationId });
 * ```
 */
export const listInvitations = (input: { organizationId: string }, options?: AuthClientOptions) =>
  authRequest<{ invitations: OrganizationInvitation[] }>(q('/org/invitations', input.organizationId), options);

/**
 * Pending invitations to the caller's verified address: `GET {basePath}/org/invitations/mine`.
 * @example
 * ```ts
 * const { data } = await listMyInvitations();
 * ```
 */
export const listMyInvitations = (options?: AuthClientOptions) =>
  authRequest<{ invitations: OrganizationInvitation[] }>('/org/invitations/mine', options);

/**
 * Revokes a pending invitation (managers): `POST {basePath}/org/invitations/revoke`.
 * @example
 * ```ts
 * await revokeInvitation({ invitationId });
 * ```
 */
export const revokeInvitation = (input: { invitationId: string }, options?: AuthClientOptions) =>
  authRequest('/org/invitations/revoke', options, input);

/**
 * Sends a pending invitation again with a new link (managers): `POST {basePath}/org/invitations/resend`.
 * @returns error `RATE_LIMITED` (429) within a minute of the last send.
 * @example
 * ```ts
 * await resendInvitation({ invitationId });
 * ```
 */
export const resendInvitation = (input: { invitationId: string }, options?: AuthClientOptions) =>
  authRequest('/org/invitations/resend', options, input);

/**
 * Accepts an invitation by the link's `token` or, for one's own, its `invitationId`: `POST
 * {basePath}/org/invitation/accept`. The organization becomes active.
 * @returns errors `INVITATION_EMAIL_MISMATCH`, `EMAIL_NOT_VERIFIED` (403), `TOKEN_INVALID` (400).
 * @example
 * ```ts
 * await acceptInvitation({ token: new URL(location.href).searchParams.get('token')! });
 * ```
 */
export const acceptInvitation = (input: { token: string } | { invitationId: string }, options?: AuthClientOptions) =>
  authRequest<{ organization: Organization }>('/org/invitation/accept', options, input, true);

/**
 * Declines an invitation: `POST {basePath}/org/invitation/decline`.
 * @example
 * ```ts
 * await declineInvitation({ invitationId });
 * ```
 */
export const declineInvitation = (input: { token: string } | { invitationId: string }, options?: AuthClientOptions) =>
  authRequest('/org/invitation/decline', options, input);
