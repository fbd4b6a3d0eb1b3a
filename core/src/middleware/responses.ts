/**
 * The answers of `authMiddleware` when it stops a request.
 * @module
 * @internal
 */
import { AuthRedirect, SessionExpiredError, UnauthenticatedError, type ForbiddenError } from '../errors.js';
import { escapeHtml, layout } from '../pages/html.js';
import { localeOfRequest } from '../i18n/request-locale.js';
import { isApiRequest } from './client.js';

/**
 * Where the sign-in page is when no request scope says otherwise (the default `pages.signIn`, core/README.md
 * "Configuration").
 */
export const DEFAULT_SIGN_IN_PAGE = '/auth/signin';

/** 302 for GET/HEAD, 303 (the browser follows with GET) otherwise. */
function redirect(request: Request, location: string): Response {
  const status = request.method === 'GET' || request.method === 'HEAD' ? 302 : 303;
  return new AuthRedirect(location, status).getResponse();
}

/** The sign-in page with `callbackUrl` set to the request's path and query. */
export function signInLocation(request: Request, signInPage: string): string {
  const url = new URL(request.url);
  const separator = signInPage.includes('?') ? '&' : '?';
  return `${signInPage}${separator}callbackUrl=${encodeURIComponent(url.pathname + url.search)}`;
}

/**
 * Nobody is signed in: API clients get 401 `{error: {code, message}}`
 * (`SESSION_EXPIRED` when the session cookie had expired, else
 * `UNAUTHENTICATED`); browsers a redirect to `redirectTo`, else to the
 * sign-in page with `callbackUrl`.
 */
export function unauthenticatedResponse(
  request: Request,
  input: { expired: boolean; redirectTo: string | undefined; signInPage: string },
): Response {
  if (isApiRequest(request))
    return (input.expired ? new SessionExpiredError() : new UnauthenticatedError()).getResponse();
  return redirect(request, input.redirectTo ?? signInLocation(request, input.signInPage));
}

/**
 * Signed in but not allowed: API clients get 403 `{error: {code, message}}`;
 * browsers a redirect to `redirectTo`, else a 403 HTML page in the language `Accept-Language` asks for (English,
 * German, French, Spanish or Japanese; the middleware runs outside the auth instance, so its `locale` option does
 * not apply). In English the page shows the error's own message; in another language the catalog's sentence.
 */
export async function forbiddenResponse(
  request: Request,
  error: ForbiddenError,
  redirectTo: string | undefined,
): Promise<Response> {
  if (isApiRequest(request)) return error.getResponse();
  if (redirectTo !== undefined) return redirect(request, redirectTo);
  // The catalogs load only when a browser is refused, not with the middleware.
  const { coreMessages } = await import('../i18n/core/index.js');
  const t = coreMessages.for(localeOfRequest(request));
  const message = t.lang === 'en' ? `${error.message}.` : t('error.Forbidden');
  const heading = escapeHtml(t('errorPage.forbiddenHeading'));
  const html = layout(
    t('errorPage.forbiddenHeading'),
    `<h1>${heading}</h1><p class="error" role="alert">${escapeHtml(message)}</p><p><a href="/">${escapeHtml(t('errorPage.home'))}</a></p>`,
    t.lang,
  );
  return new Response(html, {
    status: error.status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-language': t.lang,
      vary: 'Accept-Language',
      'cache-control': 'no-store',
      'x-frame-options': 'DENY',
    },
  });
}
