/**
 * The route table under basePath. Each route names its actions per method;
 * POST routes are state-changing and get the CSRF checks before the action.
 * @internal
 * @module
 */
import type { ActionResult, RouteContext, RouteRateLimit, Action, AuthPlugin } from '../contract/types.js';
import { csrfAction, providersAction, sessionAction, sessionUpdateAction } from './info.js';
import { credentialsAction, providerFor, signInPageAction } from './signin.js';
import { AuthError } from '../errors.js';
import { authError } from '../errors/auth-error.js';
import { signOutAction, signOutPageAction } from './signout.js';
import { errorPageAction, verifyRequestAction } from './pages.js';

import type { CredentialsProvider } from '../providers/types.js';
import { flowOf } from '../providers/flow.js';

/**
 * The account a credentials sign-in names: the first declared field that is
 * not a password (in declaration order), then `email` / `username`, so a
 * request cannot dodge its account budget by leaving `email` empty.
 */
function credentialsIdentifier(ctx: RouteContext, provider: CredentialsProvider): string {
  for (const [name, field] of Object.entries(provider.credentials)) {
    if (field.type !== 'password' && ctx.body[name]?.trim()) return ctx.body[name]!;
  }
  return ctx.body.email?.trim() || ctx.body.username?.trim() || '';
}

/**
 * `POST /signin/:provider`: a credentials sign-in is an attempt on the login
 * limiter; sending a magic link counts every send per IP and per (IP,
 * address) on the email-verification limiter (so nobody can block another's
 * links, and mail to one address is bounded per sender).
 */
function signInLimit(ctx: RouteContext): RouteRateLimit | undefined {
  const provider = ctx.providerId ? ctx.auth.providers.get(ctx.providerId) : undefined;
  const { login, emailVerification } = ctx.auth.limiters;
  if (provider?.type === 'credentials' && login)
    return { limiter: login, mode: 'attempt', identifier: credentialsIdentifier(ctx, provider) };
  if (provider?.type === 'email' && emailVerification)
    return { limiter: emailVerification, mode: 'attempt', identifier: ctx.body.email ?? '' };
  return undefined;
}

/**
 * `POST /callback/:provider`: only a credentials sign-in is limited here (the magic-link POST consumes a
 * single-use token).
 */
function callbackLimit(ctx: RouteContext): RouteRateLimit | undefined {
  const provider = ctx.providerId ? ctx.auth.providers.get(ctx.providerId) : undefined;
  const { login } = ctx.auth.limiters;
  if (provider?.type === 'credentials' && login)
    return { limiter: login, mode: 'attempt', identifier: credentialsIdentifier(ctx, provider) };
  return undefined;
}

/** Providers that bring a plugin (passkeys) sign in through their own routes. */
function ownRoutes(provider: { id: string }): AuthError {
  return authError('PROVIDER_NOT_FOUND', `Provider "${provider.id}" signs in through its own routes`);
}

function notAllowed(allow: string): never {
  throw authError('METHOD_NOT_ALLOWED', { headers: { allow } });
}

/**
 * `POST /signin/:provider`: credentials sign in directly; other providers run the flow they carry (OAuth starts
 * the authorization code flow, email sends the link; see `providers/flow.ts`).
 */
function signInProviderAction(ctx: RouteContext): Promise<ActionResult> {
  const provider = providerFor(ctx);
  if (provider.type === 'credentials') return credentialsAction(ctx);
  const flow = flowOf(provider);
  if (!flow) throw ownRoutes(provider);
  return flow.signIn(ctx, provider);
}

/** `GET|POST /callback/:provider`. */
function callbackAction(ctx: RouteContext): Promise<ActionResult> {
  const provider = providerFor(ctx);
  if (provider.type === 'credentials')
    return ctx.request.method === 'POST' ? credentialsAction(ctx) : notAllowed('POST');
  const flow = flowOf(provider);
  if (!flow) throw ownRoutes(provider);
  return flow.callback(ctx, provider);
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

/**
 * The sign-in routes as a plugin, registered first: providers, CSRF, session, the provider sign-in and callback
 * flows (credentials, OAuth/OIDC, magic links), sign-out and the default pages. A function, not a module-level
 * table, so bundlers drop the whole engine from apps that import only the request helpers (`requireAuth`).
 */
export const signInRoutes = (): AuthPlugin<'core'> => ({
  id: 'core',
  routes: {
    providers: { GET: providersAction },
    csrf: { GET: csrfAction },
    session: { GET: sessionAction, POST: sessionUpdateAction },
    signin: { GET: customPage('signIn', signInPageAction) },
    'signin/:provider': { POST: signInProviderAction, rateLimit: signInLimit },
    'callback/:provider': {
      GET: callbackAction,
      POST: callbackAction,
      csrfExempt: isOAuthCallback,
      rateLimit: callbackLimit,
    },
    signout: { GET: customPage('signOut', signOutPageAction), POST: signOutAction },
    error: { GET: customPage('error', errorPageAction) },
    'verify-request': { GET: customPage('verifyRequest', verifyRequestAction) },
  },
});
