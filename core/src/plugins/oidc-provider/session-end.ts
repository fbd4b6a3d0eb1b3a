/**
 * End-session (OpenID Connect RP-Initiated Logout 1.0): `GET /oauth2/end-session` checks `id_token_hint` and
 * `post_logout_redirect_uri` (registered per client, exact match) and shows a sign-out page whose form posts to the
 * kit's own `POST /signout` (CSRF-checked; a GET never signs out); that returns the browser to
 * `GET /oauth2/end-session/done`, which sends it on to the client with `state`.
 * @module
 * @internal
 */
import { csrfFor, pageLocale, seal, unseal, type ActionResult, type RouteContext } from '../../plugin-kit.js';
import type { Clients } from './clients.js';
import { oidcError } from './errors.js';
import { signedOutPage, signOutPage } from './pages.js';
import type { Signer } from './signer.js';

const PURPOSE = 'oidc-end-session';
/** How long the sign-out page may be answered, in seconds. */
const TTL = 600;

/** The deps of end-session. */
export interface EndSessionDeps {
  clients: Clients;
  signer: () => Signer;
}

/** `GET /oauth2/end-session`. */
export async function endSession(ctx: RouteContext, deps: EndSessionDeps): Promise<ActionResult> {
  const p = ctx.url.searchParams;
  const hintText = p.get('id_token_hint');
  const hint = hintText ? await deps.signer().readIdTokenHint(hintText) : null;
  if (hintText && !hint) throw oidcError('OIDC_REQUEST_INVALID', 'The id_token_hint is not an ID token of this site');
  const aud = hint ? (Array.isArray(hint.aud) ? hint.aud[0] : hint.aud) : undefined;
  const clientId = p.get('client_id') ?? aud;
  if (aud !== undefined && clientId !== aud) throw oidcError('OIDC_REQUEST_INVALID');
  const client = clientId ? await deps.clients.find(clientId) : null;
  const redirect = p.get('post_logout_redirect_uri');
  // Only a return address the client registered exactly, and only with a client known from the hint or client_id.
  if (redirect !== null && !client?.postLogoutRedirectUris.includes(redirect))
    throw oidcError('OIDC_REQUEST_INVALID', 'post_logout_redirect_uri is not registered for this application');
  const request = await seal({ redirect, state: p.get('state') }, ctx.auth.signingKey, PURPOSE, TTL, ctx.auth.clock);
  const csrf = await csrfFor(ctx);
  const done = `${ctx.auth.config.basePath}/oauth2/end-session/done?request=${encodeURIComponent(request)}`;
  return {
    status: 200,
    html: signOutPage({
      action: `${ctx.auth.config.basePath}/signout?callbackUrl=${encodeURIComponent(done)}`,
      csrfToken: csrf.token,
      clientName: client?.name ?? null,
      locale: pageLocale(ctx),
    }),
    headers: { 'cache-control': 'no-store', 'content-security-policy': "frame-ancestors 'none'" },
    cookies: csrf.cookie ? [csrf.cookie] : [],
  };
}

/** `GET /oauth2/end-session/done?request=…`: after the sign-out, on to the client's registered address. */
export async function endSessionDone(ctx: RouteContext): Promise<ActionResult> {
  const sealed = await unseal(
    ctx.url.searchParams.get('request') ?? undefined,
    ctx.auth.signingKey,
    PURPOSE,
    ctx.auth.clock,
  );
  if (!sealed) throw oidcError('OIDC_REQUEST_INVALID');
  if (typeof sealed.redirect !== 'string') return { status: 200, html: signedOutPage(pageLocale(ctx)) };
  const url = new URL(sealed.redirect);
  if (typeof sealed.state === 'string') url.searchParams.set('state', sealed.state);
  return { status: 303, redirect: url.href };
}
