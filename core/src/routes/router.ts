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

/** `POST /signin/:provider`: credentials sign in directly; OAuth providers start their flow. */
function signInProviderAction(ctx: RouteContext): Promise<ActionResult> {
  const provider = providerFor(ctx);
  return provider.type === 'credentials' ? credentialsAction(ctx) : oauthSignInAction(ctx, provider);
}

/** `GET|POST /callback/:provider`. */
function callbackAction(ctx: RouteContext): Promise<ActionResult> {
  const provider = providerFor(ctx);
  if (provider.type !== 'credentials') return oauthCallbackAction(ctx, provider);
  if (ctx.request.method !== 'POST') {
    throw Object.assign(new AuthError('Method GET not allowed', { code: 'METHOD_NOT_ALLOWED', status: 405 }), { allow: 'POST' });
  }
  return credentialsAction(ctx);
}

function isOAuthCallback(ctx: RouteContext): boolean {
  const provider = ctx.providerId ? ctx.auth.providers.get(ctx.providerId) : undefined;
  return provider !== undefined && provider.type !== 'credentials';
}

const ROUTES: Record<string, Route> = {
  providers: { GET: providersAction },
  csrf: { GET: csrfAction },
  session: { GET: sessionAction, POST: sessionUpdateAction },
  signin: { GET: signInPageAction },
  'signin/:provider': { POST: signInProviderAction, withProvider: true },
  'callback/:provider': { GET: callbackAction, POST: callbackAction, withProvider: true, csrfExempt: isOAuthCallback },
  signout: { GET: signOutPageAction, POST: signOutAction },
  error: { GET: errorPageAction },
  'verify-request': { GET: verifyRequestAction },
};

export interface Match {
  route: Route;
  providerId?: string;
}

/** Finds the route for the path below basePath (`/signin/credentials` → route + provider id). */
export function matchRoute(rest: string): Match | null {
  const segments = rest.split('/').filter((s) => s.length > 0);
  if (segments.length === 1) {
    const route = ROUTES[segments[0]!];
    return route && !route.withProvider ? { route } : null;
  }
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
