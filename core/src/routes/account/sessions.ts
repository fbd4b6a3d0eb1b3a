/**
 * `GET /sessions` (the caller's signed-in devices, as JSON or a no-JS page)
 * and `POST /sessions/revoke` (`{id}` of one of them, or `{others: true}`).
 * Database strategy only: JWT sessions are not stored, so they cannot be
 * listed or ended one by one (`NOT_SUPPORTED`).
 * @internal
 * @module
 */
import { sessionsPage, type SessionInfo } from '../../pages/sessions.js';
import type { AdapterSession } from '../../storage/types.js';
import type { ActionResult, RouteContext } from '../../contract/types.js';
import { badRequest } from '../../errors.js';
import { clearSessionCookie, csrfFor } from '../helpers.js';
import { done, notSupported, signedIn, storageOf, type Caller } from './signed-in.js';
import { coreMessages } from '../../i18n/core/index.js';

/** The caller under the database strategy. @throws AuthError `NOT_SUPPORTED` (400) under jwt. */
async function databaseCaller(ctx: RouteContext): Promise<Caller> {
  if (ctx.auth.config.session.strategy !== 'database')
    throw notSupported('Sessions can be listed only with the "database" session strategy');
  return signedIn(ctx);
}

function describe(session: AdapterSession, currentId: string | undefined): SessionInfo {
  return {
    id: session.id,
    createdAt: session.createdAt.toISOString(),
    lastActiveAt: (session.lastActiveAt ?? session.createdAt).toISOString(),
    expires: session.expires.toISOString(),
    userAgent: session.userAgent ?? null,
    ip: session.ip ?? null,
    current: session.id === currentId,
  };
}

/** The caller's live sessions, the current one first, then the most recently active. */
async function liveSessions(ctx: RouteContext, caller: Caller): Promise<SessionInfo[]> {
  const now = ctx.auth.clock.now();
  const rows = await storageOf(ctx).listSessions(caller.user.id);
  return rows
    .filter((s) => s.expires.getTime() > now)
    .map((s) => describe(s, caller.sessionId))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.localeCompare(a.lastActiveAt));
}

/** `GET /sessions`: `{sessions: SessionInfo[]}`, or the sessions page (signed-out browsers go to sign in). */
export async function listSessionsAction(ctx: RouteContext): Promise<ActionResult> {
  let caller: Caller;
  try {
    caller = await databaseCaller(ctx);
  } catch (error) {
    const { signIn } = ctx.auth.config.pages;
    const back = `${ctx.auth.config.basePath}/sessions`;
    if (ctx.wantsJson || (error as { code?: string }).code !== 'UNAUTHENTICATED') throw error;
    return { status: 302, redirect: `${signIn}?callbackUrl=${encodeURIComponent(back)}` };
  }
  const sessions = await liveSessions(ctx, caller);
  if (ctx.wantsJson) return { status: 200, json: { sessions }, cookies: caller.cookies };
  const { token, cookie } = await csrfFor(ctx);
  const html = sessionsPage({
    t: coreMessages.for(ctx),
    basePath: ctx.auth.config.basePath,
    csrfToken: token,
    sessions,
  });
  return { status: 200, html, cookies: [...caller.cookies, ...(cookie ? [cookie] : [])] };
}

/**
 * `POST /sessions/revoke`: `{id}` ends that session when it is the caller's
 * (an id of anyone else's session is treated as unknown: nothing happens and
 * the answer is the same); `{others: true}` ends every other session of the
 * caller. Answers `{ok: true, revoked: n}`; browsers go back to the page.
 * Revoking the current session signs the caller out.
 */
export async function revokeSessionAction(ctx: RouteContext): Promise<ActionResult> {
  const caller = await databaseCaller(ctx);
  const adapter = storageOf(ctx);
  const { id, others } = ctx.body;
  let targets: string[];
  if (others === 'true') {
    targets = (await adapter.listSessions(caller.user.id)).map((s) => s.id).filter((s) => s !== caller.sessionId);
  } else if (id) {
    const found = await adapter.getSessionAndUser(id);
    targets = found && found.session.userId === caller.user.id ? [id] : [];
  } else {
    throw badRequest('Send the `id` of a session, or `others: true`');
  }
  for (const target of targets) await adapter.deleteSession(target);
  const endedOwn = targets.includes(caller.sessionId ?? '');
  const cookies = endedOwn ? [clearSessionCookie(ctx.auth)] : caller.cookies;
  return done(ctx, { revoked: targets.length }, endedOwn ? '/' : `${ctx.auth.config.basePath}/sessions`, cookies);
}
