/**
 * The route table under basePath. Each route names its actions per method;
 * POST routes are state-changing and get the CSRF checks before the action.
 * @internal
 * @module
 */
import type { ActionResult, RouteContext } from './context.js';
import { csrfAction, providersAction, sessionAction, sessionUpdateAction } from './info.js';
import { credentialsAction, providerFor, signInPageAction } from './signin.js';
import { oauthCallbackAction, oauthSignInAction } from './oauth.js';
import { emailCallbackAction, emailSignInAction } from './email.js';
import {
  authenticateOptionsAction,
  authenticateVerifyAction,
  deletePasskeyAction,
  listPasskeysAction,
  passkeyBrowserScriptAction,
  passkeysPageAction,
  registerOptionsAction,
  registerVerifyAction,
} from './passkey.js';
import { AuthError } from '../errors.js';
import { signOutAction, signOutPageAction } from './signout.js';
import { errorPageAction, verifyRequestAction } from './pages.js';

type Action = (ctx: RouteContext) => ActionResult | Promise<ActionResult>;
/** Per method; `withProvider` routes take exactly one extra path segment. */
interface Route {
  GET?: Action;
  POST?: Action;
  withProvider?: boolean;
  /** POSTs that skip the CSRF token check because another mechanism protects them (OAuth state + PKCE + flow cookie). */
  csrfExempt?: (ctx: RouteContext) => boolean;
}

function notAllowed(allow: string): never {
  throw Object.assign(new AuthError('Method not allowed', { code: 'METHOD_NOT_ALLOWED', status: 405 }), { allow });
}

/** `POST /signin/:provider`: credentials sign in directly; OAuth providers start their flow; email sends the link. */
function signInProviderAction(ctx: RouteContext): Promise<ActionResult> {
  const provider = providerFor(ctx);
  switch (provider.type) {
    case 'credentials':
      return credentialsAction(ctx);
    case 'email':
      return emailSignInAction(ctx, provider);
    case 'passkey':
      throw new AuthError('Passkeys sign in through /passkey/authenticate/*', { code: 'PROVIDER_NOT_FOUND', status: 404 });
    default:
      return oauthSignInAction(ctx, provider);
  }
}

/** `GET|POST /callback/:provider`. */
function callbackAction(ctx: RouteContext): Promise<ActionResult> {
  const provider = providerFor(ctx);
  const post = ctx.request.method === 'POST';
  switch (provider.type) {
    case 'credentials':
      return post ? credentialsAction(ctx) : notAllowed('POST');
    case 'email':
      return post ? notAllowed('GET, HEAD') : emailCallbackAction(ctx, provider);
    case 'passkey':
      throw new AuthError('Passkeys sign in through /passkey/authenticate/*', { code: 'PROVIDER_NOT_FOUND', status: 404 });
    default:
      return oauthCallbackAction(ctx, provider);
  }
}

function isOAuthCallback(ctx: RouteContext): boolean {
  const provider = ctx.providerId ? ctx.auth.providers.get(ctx.providerId) : undefined;
  return provider?.type === 'oauth' || provider?.type === 'oidc';
}

/**
 * When `pages.X` points elsewhere, the kit's own page route sends the browser
 * there (keeping the query), so links to the default page keep working.
 */
function customPage(page: 'signIn' | 'signOut' | 'error' | 'verifyRequest', fallback: Action): Action {
  return (ctx) => {
    const target = ctx.auth.config.pages[page];
    const own = `${ctx.auth.config.basePath}/${{ signIn: 'signin', signOut: 'signout', error: 'error', verifyRequest: 'verify-request' }[page]}`;
    if (target !== own) return { status: 302, redirect: `${target}${ctx.url.search}` };
    return fallback(ctx);
  };
}

const ROUTES: Record<string, Route> = {
  providers: { GET: providersAction },
  csrf: { GET: csrfAction },
  session: { GET: sessionAction, POST: sessionUpdateAction },
  signin: { GET: customPage('signIn', signInPageAction) },
  'signin/:provider': { POST: signInProviderAction, withProvider: true },
  'callback/:provider': { GET: callbackAction, POST: callbackAction, withProvider: true, csrfExempt: isOAuthCallback },
  signout: { GET: customPage('signOut', signOutPageAction), POST: signOutAction },
  error: { GET: customPage('error', errorPageAction) },
  'verify-request': { GET: customPage('verifyRequest', verifyRequestAction) },
  passkey: { GET: passkeysPageAction },
  'passkey/browser.js': { GET: passkeyBrowserScriptAction },
  'passkey/credentials': { GET: listPasskeysAction },
  'passkey/delete': { POST: deletePasskeyAction },
  'passkey/register/options': { POST: registerOptionsAction },
  'passkey/register/verify': { POST: registerVerifyAction },
  'passkey/authenticate/options': { POST: authenticateOptionsAction },
  'passkey/authenticate/verify': { POST: authenticateVerifyAction },
};

export interface Match {
  route: Route;
  providerId?: string;
}

/** Finds the route for the path below basePath (`/signin/credentials` → route + provider id). */
export function matchRoute(rest: string): Match | null {
  const segments = rest.split('/').filter((s) => s.length > 0);
  const exact = Object.hasOwn(ROUTES, segments.join('/')) ? ROUTES[segments.join('/')] : undefined;
  if (exact && !exact.withProvider) return { route: exact };
  if (segments.length === 2) {
    const route = ROUTES[`${segments[0]}/:provider`];
    if (!route) return null;
    let providerId: string;
    try {
      providerId = decodeURIComponent(segments[1]!);
    } catch {
      return null;
    }
    return { route, providerId };
  }
  return null;
}

/** The methods a route allows, for `Allow` on 405. */
export function allowedMethods(route: Route): string[] {
  const out: string[] = [];
  if (route.GET) out.push('GET', 'HEAD');
  if (route.POST) out.push('POST');
  return out;
}
