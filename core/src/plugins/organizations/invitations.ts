/**
 * Invitations: invite by email with a role, list pending, revoke, resend (rate-limited), and the invitee's side:
 * look at, accept (the signed-in user's verified email must be the invited one) or decline.
 * @module
 * @internal
 */
import { randomString, sha256Hex } from '../../crypto.js';
import { authError } from '../../errors/auth-error.js';
import { ORGANIZATION_ERRORS } from './errors.js';
import { emailedLinkUrl } from '../../links/emailed-link.js';
import { TenantNotFoundError } from '../../tenant/errors.js';
import type { Caller } from '../../routes/account/signed-in.js';
import { storageOf } from '../../routes/account/signed-in.js';
import type { RouteContext } from '../../contract/types.js';
import { emit } from '../../routes/emit.js';
import { parseEmailAddress } from '../../input/text.js';
import { forbidden, invalid, managerOf, organizationKey, type Membership } from './guards.js';
import { orgView } from './manage.js';
import type { ResolvedOrganizationsOptions } from './options.js';
import type { InvitationRecord } from './types.js';

const tokenInvalid = () => authError('TOKEN_INVALID', 'The invitation is invalid, used or expired');

/** An invitation as the API shows it (never its token). */
export const invitationView = (r: InvitationRecord) => ({
  id: r.id,
  organizationId: r.organizationId,
  email: r.email,
  role: r.role,
  status: r.status,
  expiresAt: r.expiresAt.toISOString(),
  sentAt: r.sentAt.toISOString(),
});

/** A new token and the link that carries it, on the canonical origin. */
async function freshLink(ctx: RouteContext) {
  const token = randomString(32);
  return { tokenHash: await sha256Hex(token), url: emailedLinkUrl(ctx, 'org/invitation', { token }) };
}

async function send(
  ctx: RouteContext,
  o: ResolvedOrganizationsOptions,
  caller: Caller,
  organization: Membership['organization'],
  invitation: InvitationRecord,
  url: string,
) {
  try {
    const mail = {
      organization: { id: organization.id, slug: organization.slug, name: organization.name },
      inviter: { id: caller.user.id, email: caller.user.email ?? null, name: caller.user.name ?? null },
      email: invitation.email,
      role: invitation.role,
      url,
      expiresAt: invitation.expiresAt,
    };
    const message = { kind: 'invitation', channel: 'email', to: mail.email, url, expiresAt: mail.expiresAt } as const;
    await ctx.auth.deliver({ ...message, data: mail }, () => o.sendInvitation(mail));
  } catch (error) {
    ctx.auth.logger.error(`[auth] sendInvitation threw ${error instanceof Error ? error.name : typeof error}`);
    throw authError('EMAIL_SEND_FAILED', 'The invitation could not be sent; resend it later');
  }
}

/** `POST /org/invite {organizationId, email, role?}` (managers; only owners invite owners). */
export async function invite(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  const { organization, membership } = await managerOf(o, caller, organizationKey(ctx));
  const email = parseEmailAddress(ctx.body.email);
  if (!email) throw invalid('A valid `email` is required');
  const role = ctx.body.role || o.defaultRole;
  if (!o.roles.includes(role)) throw invalid(`\`role\` must be one of ${o.roles.join(', ')}`);
  if (role === o.ownerRole && membership.role !== o.ownerRole) throw forbidden('Only an owner may invite owners');
  const existing = await storageOf(ctx).getUserByEmail(email);
  if (existing && (await o.tenants.getMember(organization.id, existing.id)))
    throw ORGANIZATION_ERRORS.error('ALREADY_MEMBER');
  // One live invitation per address and organization: a new one replaces the old.
  for (const old of await o.invitations.listByOrganization(organization.id, 'pending'))
    if (old.email === email) await o.invitations.settle(old.id, 'revoked');
  const { tokenHash, url } = await freshLink(ctx);
  const now = new Date(ctx.auth.clock.now());
  const invitation: InvitationRecord = {
    id: crypto.randomUUID(),
    organizationId: organization.id,
    email,
    role,
    inviterId: caller.user.id,
    tokenHash,
    status: 'pending',
    expiresAt: new Date(now.getTime() + o.invitationMaxAge * 1000),
    createdAt: now,
    sentAt: now,
  };
  await o.invitations.create(invitation);
  await send(ctx, o, caller, organization, invitation, url);
  await emit(ctx, 'onMemberInvited', { actor: caller.user, organization: orgView(organization), email, role });
  return invitation;
}

/** The pending invitation `invitationId` names, in an organization the caller manages. */
async function managedInvitation(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  const id = ctx.body.invitationId;
  if (!id || id.length > 64) throw invalid('`invitationId` is required');
  const invitation = await o.invitations.get(id);
  // An invitation of another organization answers as the organization would: not found.
  if (!invitation) throw new TenantNotFoundError('Organization not found');
  const found = await managerOf(o, caller, invitation.organizationId);
  if (invitation.status !== 'pending') throw tokenInvalid();
  return { ...found, invitation };
}

/** `GET /org/invitations?organizationId=` (managers): the pending invitations. */
export async function listInvitations(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  const { organization } = await managerOf(o, caller, organizationKey(ctx));
  return (await o.invitations.listByOrganization(organization.id, 'pending')).map(invitationView);
}

/** `POST /org/invitations/revoke {invitationId}` (managers). */
export async function revokeInvitation(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  const { invitation } = await managedInvitation(ctx, o, caller);
  await o.invitations.settle(invitation.id, 'revoked');
}

/** `POST /org/invitations/resend {invitationId}` (managers): a new link, the old one stops working. */
export async function resendInvitation(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  const { organization, invitation } = await managedInvitation(ctx, o, caller);
  const wait = invitation.sentAt.getTime() + o.resendInterval * 1000 - ctx.auth.clock.now();
  if (wait > 0)
    throw authError('RATE_LIMITED', {
      message: 'The invitation was sent moments ago; try again later',
      headers: { 'retry-after': String(Math.ceil(wait / 1000)) },
    });
  const { tokenHash, url } = await freshLink(ctx);
  const now = new Date(ctx.auth.clock.now());
  const renewed = { tokenHash, sentAt: now, expiresAt: new Date(now.getTime() + o.invitationMaxAge * 1000) };
  if (!(await o.invitations.renew(invitation.id, renewed))) throw tokenInvalid();
  await send(ctx, o, caller, organization, { ...invitation, ...renewed }, url);
}

/** The pending, unexpired invitation of a `token` (or, for its invitee, an `invitationId`), with its organization. */
export async function openInvitation(
  ctx: Pick<RouteContext, 'auth'>,
  o: ResolvedOrganizationsOptions,
  input: { token?: string | null; invitationId?: string | null },
) {
  let invitation: InvitationRecord | null = null;
  if (input.token && input.token.length <= 128)
    invitation = await o.invitations.findByTokenHash(await sha256Hex(input.token));
  else if (input.invitationId && input.invitationId.length <= 64)
    invitation = await o.invitations.get(input.invitationId);
  if (!invitation || invitation.status !== 'pending' || invitation.expiresAt.getTime() <= ctx.auth.clock.now())
    throw tokenInvalid();
  const organization = await o.tenants.get(invitation.organizationId);
  if (!organization) throw tokenInvalid();
  return { invitation, organization };
}

/** The caller, when their verified email is the invited one. @throws 403 `INVITATION_EMAIL_MISMATCH` / `EMAIL_NOT_VERIFIED`. */
async function invitee(ctx: RouteContext, caller: Caller, invitation: InvitationRecord, needVerified: boolean) {
  const user = await storageOf(ctx).getUser(caller.user.id);
  if (!user?.email || user.email.toLowerCase() !== invitation.email)
    throw ORGANIZATION_ERRORS.error('INVITATION_EMAIL_MISMATCH');
  if (needVerified && !user.emailVerified) throw authError('EMAIL_NOT_VERIFIED');
  return user;
}

/** `POST /org/invitation/accept {token | invitationId}`: joins with the invited role (a member keeps theirs). */
export async function acceptInvitation(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  const { invitation, organization } = await openInvitation(ctx, o, ctx.body);
  const user = await invitee(ctx, caller, invitation, true);
  if (!(await o.invitations.settle(invitation.id, 'accepted'))) throw tokenInvalid();
  const existing = await o.tenants.getMember(organization.id, user.id);
  const membership =
    existing ?? (await o.tenants.addMember({ tenantId: organization.id, userId: user.id, role: invitation.role }));
  await emit(ctx, 'onInvitationAccepted', { user, organization: orgView(organization), role: membership.role });
  return { organization, membership };
}

/** `POST /org/invitation/decline {token | invitationId}`. */
export async function declineInvitation(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  const { invitation } = await openInvitation(ctx, o, ctx.body);
  await invitee(ctx, caller, invitation, false);
  if (!(await o.invitations.settle(invitation.id, 'declined'))) throw tokenInvalid();
}

/** `GET /org/invitations/mine`: pending invitations to the caller's verified address. */
export async function myInvitations(ctx: RouteContext, o: ResolvedOrganizationsOptions, caller: Caller) {
  const user = await storageOf(ctx).getUser(caller.user.id);
  if (!user?.email || !user.emailVerified) return [];
  const out = [];
  for (const r of await o.invitations.listPendingByEmail(user.email)) {
    if (r.expiresAt.getTime() <= ctx.auth.clock.now()) continue;
    const organization = await o.tenants.get(r.organizationId);
    if (organization) out.push({ ...invitationView(r), organization: orgView(organization) });
  }
  return out;
}
