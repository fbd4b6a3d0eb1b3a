/**
 * The routes of `organizations()` under `basePath` (`/org/...`): JSON for API clients, and for browsers the no-JS
 * page at `GET /org` (a refused form shows it again with the reason). Every POST is CSRF-checked; every route reads
 * the session cookie only (a request presenting an API key instead: 403 `API_KEY_NOT_ALLOWED`).
 * @module
 * @internal
 */
import { AuthError } from '../../errors.js';
import { readCookie, type OutCookie } from '../../http/cookies.js';
import type { ActionResult, RouteContext, Action, PluginRoute } from '../../contract/types.js';
import { csrfFor } from '../../routes/helpers.js';
import { showEmailedLink } from '../../links/emailed-link.js';
import { signInRedirect, type Caller } from '../../routes/account/signed-in.js';
import { cookieCaller } from '../cookie-caller.js';
import { activeCookie, activeOf, clearActiveCookie } from './active.js';
import { memberOf, organizationKey } from './guards.js';
import {
  acceptInvitation,
  declineInvitation,
  invitationView,
  invite,
  listInvitations,
  myInvitations,
  openInvitation,
  resendInvitation,
  revokeInvitation,
} from './invitations.js';
import {
  createOrganization,
  deleteOrganization,
  leaveOrganization,
  listMembers,
  myOrganizations,
  orgView,
  removeMember,
  setMemberRole,
  transferOwnership,
  updateOrganization,
} from './manage.js';
import type { ResolvedOrganizationsOptions } from './options.js';
import { invitationPage, organizationsPage } from './pages.js';
import { organizationsMessages } from './messages.js';
import { pageLocale } from '../../i18n/request-locale.js';
import { errorMessageFor } from '../../i18n/catalog.js';

const NO_STORE = { 'cache-control': 'no-store', 'referrer-policy': 'same-origin' };
/** How a refusal of an API key names these routes (403 `API_KEY_NOT_ALLOWED`). */
const ORG_ROUTES = 'The organization routes';
type Outcome = { json: Record<string, unknown>; cookies?: OutCookie[]; notice?: string };

/** `GET /org`: the page, with a notice or an error. */
async function page(
  ctx: RouteContext,
  o: ResolvedOrganizationsOptions,
  caller: Caller,
  message: { notice?: string; error?: string } = {},
  status = 200,
): Promise<ActionResult> {
  const { token, cookie } = await csrfFor(ctx);
  const active = await activeOf(o, ctx.request, caller.user.id);
  const manager = active ? o.managerRoles.includes(active.membership.role) : false;
  const page = active ? await listMembers(ctx, o, caller, active.organization.id) : null;
  const invitations =
    active && manager ? await o.invitations.listByOrganization(active.organization.id, 'pending') : [];
  const html = organizationsPage({
    basePath: ctx.auth.config.basePath,
    csrfToken: token,
    organizations: await myOrganizations(o, caller),
    active: active
      ? { id: active.organization.id, name: active.organization.name, role: active.membership.role, manager }
      : null,
    members: page?.members ?? [],
    membersNext: page?.next ?? null,
    invitations,
    mine: await myInvitations(ctx, o, caller),
    roles: o.roles,
    defaultRole: o.defaultRole,
    selfId: caller.user.id,
    // The link to `sso()`'s page for managers, when that plugin serves it.
    ssoManage: ctx.auth.routeTemplateOf('/sso/manage') !== undefined,
    locale: pageLocale(ctx),
    ...message,
  });
  return { status, html, cookies: [...caller.cookies, ...(cookie ? [cookie] : [])], headers: NO_STORE };
}

/** A POST: JSON `{ok: true, ...}`, or for browsers a 303 back to `GET /org` (a 4xx shows the page with the reason). */
function orgAction(
  o: ResolvedOrganizationsOptions,
  run: (ctx: RouteContext, caller: Caller) => Promise<Outcome>,
): Action {
  return async (ctx) => {
    const caller = await cookieCaller(ctx, ORG_ROUTES);
    try {
      const out = await run(ctx, caller);
      const cookies = [...caller.cookies, ...(out.cookies ?? [])];
      if (ctx.wantsJson) return { status: 200, json: { ok: true, ...out.json }, cookies, headers: NO_STORE };
      return { status: 303, redirect: `${ctx.auth.config.basePath}/org`, cookies };
    } catch (error) {
      if (ctx.wantsJson || !(error instanceof AuthError) || error.status >= 500) throw error;
      return page(ctx, o, caller, { error: errorMessageFor(ctx, error, organizationsMessages) }, error.status);
    }
  };
}

/** A JSON read for members. */
function orgRead(run: (ctx: RouteContext, caller: Caller) => Promise<Record<string, unknown>>): Action {
  return async (ctx) => {
    const caller = await cookieCaller(ctx, ORG_ROUTES);
    return { status: 200, json: await run(ctx, caller), cookies: caller.cookies, headers: NO_STORE };
  };
}

/** The route table. */
export function organizationRoutes(o: ResolvedOrganizationsOptions): Record<string, PluginRoute> {
  const active = (ctx: RouteContext, caller: Caller) => activeOf(o, ctx.request, caller.user.id);
  return {
    org: {
      async GET(ctx) {
        const signInFirst = await signInRedirect(ctx);
        return signInFirst ?? page(ctx, o, await cookieCaller(ctx, ORG_ROUTES));
      },
    },
    'org/list': { GET: orgRead(async (_ctx, caller) => ({ organizations: await myOrganizations(o, caller) })) },
    'org/active': {
      GET: orgRead(async (ctx, caller) => {
        const found = await active(ctx, caller);
        return {
          organization: found ? { ...orgView(found.organization), role: found.membership.role } : null,
        };
      }),
    },
    'org/create': {
      POST: orgAction(o, async (ctx, caller) => {
        const organization = await createOrganization(ctx, o, caller);
        return { json: { organization: orgView(organization) }, cookies: [activeCookie(ctx.auth, organization.id)] };
      }),
    },
    'org/update': {
      POST: orgAction(o, async (ctx, caller) => ({
        json: { organization: orgView(await updateOrganization(ctx, o, caller)) },
      })),
    },
    'org/delete': {
      POST: orgAction(o, async (ctx, caller) => {
        await deleteOrganization(ctx, o, caller);
        const wasActive = readCookie(ctx.request.headers.get('cookie'), activeCookie(ctx.auth, '').name);
        return { json: {}, cookies: wasActive ? [clearActiveCookie(ctx.auth)] : [] };
      }),
    },
    'org/set-active': {
      POST: orgAction(o, async (ctx, caller) => {
        if (!ctx.body.organizationId) return { json: { organization: null }, cookies: [clearActiveCookie(ctx.auth)] };
        const { organization, membership } = await memberOf(o, caller, organizationKey(ctx));
        return {
          json: { organization: { ...orgView(organization), role: membership.role } },
          cookies: [activeCookie(ctx.auth, organization.id)],
        };
      }),
    },
    'org/members': {
      GET: orgRead(async (ctx, caller) => {
        const { organization, members, next } = await listMembers(ctx, o, caller);
        return { organization: orgView(organization), members, next };
      }),
    },
    'org/members/set-role': {
      POST: orgAction(o, async (ctx, caller) => {
        const m = await setMemberRole(ctx, o, caller);
        return { json: { userId: m.userId, role: m.role } };
      }),
    },
    'org/members/remove': {
      POST: orgAction(o, async (ctx, caller) => {
        await removeMember(ctx, o, caller);
        return { json: {} };
      }),
    },
    'org/leave': {
      POST: orgAction(o, async (ctx, caller) => {
        const organization = await leaveOrganization(ctx, o, caller);
        const current = readCookie(ctx.request.headers.get('cookie'), activeCookie(ctx.auth, '').name);
        return { json: {}, cookies: current === organization.id ? [clearActiveCookie(ctx.auth)] : [] };
      }),
    },
    'org/transfer': {
      POST: orgAction(o, async (ctx, caller) => {
        await transferOwnership(ctx, o, caller);
        return { json: {} };
      }),
    },
    'org/invite': {
      POST: orgAction(o, async (ctx, caller) => ({
        json: { invitation: invitationView(await invite(ctx, o, caller)) },
      })),
    },
    'org/invitations': {
      GET: orgRead(async (ctx, caller) => ({ invitations: await listInvitations(ctx, o, caller) })),
    },
    'org/invitations/mine': {
      GET: orgRead(async (ctx, caller) => ({ invitations: await myInvitations(ctx, o, caller) })),
    },
    'org/invitations/revoke': {
      POST: orgAction(o, async (ctx, caller) => {
        await revokeInvitation(ctx, o, caller);
        return { json: {} };
      }),
    },
    'org/invitations/resend': {
      POST: orgAction(o, async (ctx, caller) => {
        await resendInvitation(ctx, o, caller);
        return { json: {} };
      }),
    },
    // The link in the invitation mail: a page (GET and HEAD accept nothing); its buttons POST accept or decline.
    'org/invitation': {
      GET: (ctx) =>
        showEmailedLink(ctx, {
          params: ['token'],
          check: (ctx, params) => openInvitation(ctx, o, { token: params.token }),
          json: (_ctx, _params, { invitation, organization }) => ({
            organization: orgView(organization),
            role: invitation.role,
            email: invitation.email,
            expiresAt: invitation.expiresAt.toISOString(),
          }),
          page: async (ctx, form, { invitation, organization }) =>
            invitationPage({
              basePath: ctx.auth.config.basePath,
              csrfToken: form.csrfToken,
              token: form.params.token!,
              organization: organization.name,
              role: invitation.role,
              email: invitation.email,
              signedIn: (await ctx.auth.readSession(ctx.request)).user !== null,
              locale: pageLocale(ctx),
            }),
        }),
    },
    'org/invitation/accept': {
      POST: orgAction(o, async (ctx, caller) => {
        const { organization, membership } = await acceptInvitation(ctx, o, caller);
        return {
          json: { organization: { ...orgView(organization), role: membership.role } },
          cookies: [activeCookie(ctx.auth, organization.id)],
        };
      }),
    },
    'org/invitation/decline': {
      POST: orgAction(o, async (ctx, caller) => {
        await declineInvitation(ctx, o, caller);
        return { json: {} };
      }),
    },
  };
}
