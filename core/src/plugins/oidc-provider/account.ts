/**
 * "Apps with access": `GET /oauth2/consents` lists the applications the signed-in user allowed (a no-JS page, or
 * JSON), `POST /oauth2/consents/revoke {clientId}` withdraws one: the consent goes and every grant of that
 * application for the user is revoked (its access and refresh tokens stop working).
 * @module
 * @internal
 */
import {
  csrfFor,
  pageLocale,
  signInRedirect,
  signedIn,
  signedInAsSelf,
  type ActionResult,
  type RouteContext,
} from '../../plugin-kit.js';
import type { Clients } from './clients.js';
import { oidcError } from './errors.js';
import type { ResolvedOidcProviderOptions } from './options.js';
import { appsPage } from './pages.js';

/** An application the user allowed, as listed. */
export interface AppWithAccess {
  clientId: string;
  name: string;
  scopes: string[];
  /** When the user first allowed it. */
  createdAt: Date;
}

/** The user's allowed applications, oldest first. */
export async function appsOf(
  o: ResolvedOidcProviderOptions,
  clients: Clients,
  userId: string,
): Promise<AppWithAccess[]> {
  const consents = await o.storage.listConsents(userId);
  return Promise.all(
    consents.map(async (c) => ({
      clientId: c.clientId,
      name: (await clients.find(c.clientId))?.name ?? c.clientId,
      scopes: c.scopes,
      createdAt: c.createdAt,
    })),
  );
}

/** Withdraws the user's consent to `clientId` and revokes its grants; false when there was no consent. */
export async function revokeApp(
  o: ResolvedOidcProviderOptions,
  userId: string,
  clientId: string,
  at: Date,
): Promise<boolean> {
  const removed = await o.storage.removeConsent(userId, clientId);
  const revoked = await o.storage.revokeGrantsOf(userId, clientId, at);
  return removed || revoked > 0;
}

/** `GET /oauth2/consents`. */
export async function listApps(
  ctx: RouteContext,
  o: ResolvedOidcProviderOptions,
  clients: Clients,
): Promise<ActionResult> {
  const away = await signInRedirect(ctx);
  if (away) return away;
  const caller = await signedIn(ctx);
  const apps = await appsOf(o, clients, caller.user.id);
  if (ctx.wantsJson)
    return { status: 200, json: { apps }, cookies: caller.cookies, headers: { 'cache-control': 'no-store' } };
  const csrf = await csrfFor(ctx);
  return {
    status: 200,
    html: appsPage({
      action: `${ctx.auth.config.basePath}/oauth2/consents/revoke`,
      csrfToken: csrf.token,
      apps: apps.map((a) => ({ ...a, since: a.createdAt })),
      locale: pageLocale(ctx),
    }),
    headers: { 'cache-control': 'no-store' },
    cookies: [...caller.cookies, ...(csrf.cookie ? [csrf.cookie] : [])],
  };
}

/** `POST /oauth2/consents/revoke {clientId}`. */
export async function revokeAppAction(ctx: RouteContext, o: ResolvedOidcProviderOptions): Promise<ActionResult> {
  const caller = await signedInAsSelf(ctx);
  const clientId = ctx.body.clientId ?? '';
  if (!(await revokeApp(o, caller.user.id, clientId, new Date(ctx.auth.clock.now()))))
    throw oidcError('OIDC_CONSENT_NOT_FOUND');
  if (ctx.wantsJson) return { status: 200, json: { ok: true }, cookies: caller.cookies };
  return { status: 303, redirect: `${ctx.auth.config.basePath}/oauth2/consents`, cookies: caller.cookies };
}
