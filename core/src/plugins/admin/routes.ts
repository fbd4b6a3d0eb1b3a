/**
 * The routes of `admin()` under `basePath`. Every route but `stop-impersonating` is for admins only, checked
 * server-side against the stored user on each request; every POST is CSRF-checked.
 * @module
 * @internal
 */
import { AuthError } from '../../errors.js';
import type { ActionResult, RouteContext, Action, PluginRoute } from '../../contract/types.js';
import { csrfFor, publicUser } from '../../routes/helpers.js';
import type { Caller } from '../../routes/account/signed-in.js';
import { requireAdmin } from './access.js';
import { signInRedirect } from '../../routes/account/signed-in.js';
import { impersonate, stopImpersonating } from './impersonation.js';
import type { ResolvedAdminOptions } from './options.js';
import { adminPage } from './pages.js';
import { adminMessages } from './messages.js';
import { pageLocale } from '../../i18n/request-locale.js';
import { errorMessageFor } from '../../i18n/catalog.js';
import { banUser, createUser, listUsers, removeUser, revokeSessions, setRole, unbanUser } from './users.js';

const NO_STORE = { 'cache-control': 'no-store', 'referrer-policy': 'same-origin' };

/** The admin page, with a notice or an error. */
async function page(
  ctx: RouteContext,
  o: ResolvedAdminOptions,
  caller: Caller,
  message: { notice?: string; error?: string } = {},
  status = 200,
): Promise<ActionResult> {
  const { page: result, users } = await listUsers(ctx, o);
  const { token, cookie } = await csrfFor(ctx);
  const html = adminPage({
    basePath: ctx.auth.config.basePath,
    csrfToken: token,
    selfId: caller.user.id,
    users,
    search: ctx.url.searchParams.get('search') ?? '',
    next: result.next,
    locale: pageLocale(ctx),
    ...message,
  });
  return { status, html, cookies: [...caller.cookies, ...(cookie ? [cookie] : [])], headers: NO_STORE };
}

/** An admin POST: JSON `{ok: true, ...}`, or the admin page again with a notice (or the refusal) for browsers. */
function adminAction(
  o: ResolvedAdminOptions,
  run: (ctx: RouteContext, caller: Caller) => Promise<{ json: Record<string, unknown>; notice: string }>,
): Action {
  return async (ctx) => {
    const caller = await requireAdmin(ctx, o);
    try {
      const out = await run(ctx, caller);
      if (ctx.wantsJson)
        return { status: 200, json: { ok: true, ...out.json }, cookies: caller.cookies, headers: NO_STORE };
      return await page(ctx, o, caller, { notice: out.notice });
    } catch (error) {
      if (ctx.wantsJson || !(error instanceof AuthError) || error.status >= 500) throw error;
      return page(ctx, o, caller, { error: errorMessageFor(ctx, error, adminMessages) }, error.status);
    }
  };
}

/** The route table. */
export function adminRoutes(o: ResolvedAdminOptions): Record<string, PluginRoute> {
  return {
    admin: {
      async GET(ctx) {
        const signInFirst = await signInRedirect(ctx);
        if (signInFirst) return signInFirst;
        const caller = await requireAdmin(ctx, o);
        return page(ctx, o, caller);
      },
    },
    'admin/users': {
      async GET(ctx) {
        const caller = await requireAdmin(ctx, o);
        const { page: result, users } = await listUsers(ctx, o);
        return { status: 200, json: { users, next: result.next }, cookies: caller.cookies, headers: NO_STORE };
      },
    },
    'admin/users/create': {
      POST: adminAction(o, async (ctx, caller) => {
        const user = await createUser(ctx, caller);
        return {
          json: { user: publicUser(user) },
          notice: adminMessages.for(ctx)('admin.notice.created', { user: user.email ?? user.id }),
        };
      }),
    },
    'admin/users/set-role': {
      POST: adminAction(o, async (ctx, caller) => {
        const user = await setRole(ctx, caller);
        return {
          json: { user: publicUser(user) },
          notice: adminMessages.for(ctx)('admin.notice.role', { user: user.email ?? user.id, role: String(user.role) }),
        };
      }),
    },
    'admin/users/ban': {
      POST: adminAction(o, async (ctx, caller) => {
        const ban = await banUser(ctx, o, caller);
        return {
          json: { userId: ban.userId, expiresAt: ban.expiresAt?.toISOString() ?? null },
          notice: adminMessages.for(ctx)('admin.notice.banned'),
        };
      }),
    },
    'admin/users/unban': {
      POST: adminAction(o, async (ctx, caller) => {
        const user = await unbanUser(ctx, o, caller);
        return {
          json: { userId: user.id },
          notice: adminMessages.for(ctx)('admin.notice.unbanned', { user: user.email ?? user.id }),
        };
      }),
    },
    'admin/users/revoke-sessions': {
      POST: adminAction(o, async (ctx, caller) => {
        const revoked = await revokeSessions(ctx, caller);
        return { json: { revoked }, notice: adminMessages.for(ctx)('admin.notice.revoked', { count: revoked }) };
      }),
    },
    'admin/users/remove': {
      POST: adminAction(o, async (ctx, caller) => {
        await removeUser(ctx, o, caller);
        return { json: {}, notice: adminMessages.for(ctx)('admin.notice.removed') };
      }),
    },
    'admin/impersonate': { POST: (ctx) => impersonate(ctx, o) },
    'admin/stop-impersonating': { POST: (ctx) => stopImpersonating(ctx) },
  };
}
