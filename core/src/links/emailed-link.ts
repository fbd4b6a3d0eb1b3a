/**
 * Emailed links that change state (sign-in, email verification, email
 * change and its undo, password reset, invitations): the one way the kit
 * builds and serves them.
 *
 * A link in a mail is fetched by mail scanners, link previews and
 * pre-fetchers before (or instead of) the person. So the URL in the mail
 * opens a page, and only that page's button, a CSRF-checked POST of the same
 * parameters, uses the token. `GET` and `HEAD` never consume anything
 * (OWASP ASVS V3.5; RFC 9110 §9.2.1: GET and HEAD are safe methods).
 *
 * @example
 * ```ts
 * const routes = {
 *   'verify-email': emailedLinkRoute({
 *     params: ['token'],
 *     page: (ctx, form) => confirmLinkPage({ title: 'Confirm your email', button: 'Confirm', form }),
 *     use: async (ctx) => { ... consume ctx.body.token once ... },
 *   }),
 * };
 * const url = emailedLinkUrl(ctx, 'verify-email', { token });
 * ```
 * @module
 */
import { authError } from '../errors/auth-error.js';
import { escapeHtml, hidden, layout } from '../pages/html.js';
import type { Action, PluginRoute, ActionResult, RouteContext, RouteRateLimit } from '../contract/types.js';
import { csrfFor } from '../routes/helpers.js';

/** The longest value a link parameter may have, in characters. */
export const MAX_LINK_PARAM = 512;

/** What a confirm page renders its form from. */
export interface LinkForm {
  /** The path the form POSTs to: the link's own path. */
  action: string;
  /** The double-submit CSRF token of this browser. */
  csrfToken: string;
  /** The link's parameters, as they came in the URL (each at most {@link MAX_LINK_PARAM} characters). */
  params: Readonly<Record<string, string>>;
  /** The hidden inputs carrying the CSRF token and every parameter: put them inside the `<form>`. */
  hiddenFields: string;
}

/**
 * How the route an emailed link opens is served. `T` is what `check` finds out about the link (an invitation,
 * say), handed to `page` and `json`.
 */
export interface EmailedLinkSpec<T = void> {
  /**
   * The query parameters the link carries into the form (e.g. `['token', 'email']`). `callbackUrl` is
   * carried too when present. The first one is required: a link without it is refused.
   */
  params: readonly [string, ...string[]];
  /**
   * Looks at the link without using it, before the page is shown (e.g. that the token is well formed or the
   * invitation pending), and returns what the page needs to know. Throw an `AuthError` to refuse it; a link
   * without its first parameter is refused with `TOKEN_INVALID` (400) before this runs.
   */
  check?(ctx: RouteContext, params: Readonly<Record<string, string>>): T | Promise<T>;
  /** The confirm page: HTML with a `<form method="post">` holding `form.hiddenFields` and a button. */
  page(ctx: RouteContext, form: LinkForm, checked: T): string | Promise<string>;
  /**
   * What a JSON client gets instead of the page. Default `{ confirm: { method: 'POST', action, fields } }`, so
   * the client POSTs the fields itself.
   */
  json?(ctx: RouteContext, params: Readonly<Record<string, string>>, checked: T): unknown;
  /** The POST the page's button sends (CSRF-checked by the core): uses the token, once. */
  use: Action;
  /** The POST's rate limit, if any. */
  rateLimit?(ctx: RouteContext): RouteRateLimit | undefined;
}

const tokenInvalid = () => authError('TOKEN_INVALID');

/** The link's parameters from the query: the named ones and `callbackUrl`, each bounded. */
function paramsOf(ctx: RouteContext, names: readonly string[]): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const name of [...names, 'callbackUrl']) {
    const value = ctx.url.searchParams.get(name);
    if (value === null) continue;
    if (value.length > MAX_LINK_PARAM) return null;
    out[name] = value;
  }
  return out[names[0]!] ? out : null;
}

/**
 * The `GET` (and `HEAD`) of an emailed link: the confirm page, never a use. JSON clients get
 * `{ confirm: { method: 'POST', action, fields } }` to POST themselves.
 * @throws AuthError `TOKEN_INVALID` (400) for a link without its first parameter or with an oversized one, or
 *   what `spec.check` throws.
 */
export async function showEmailedLink<T = void>(
  ctx: RouteContext,
  spec: Pick<EmailedLinkSpec<T>, 'params' | 'check' | 'page' | 'json'>,
): Promise<ActionResult> {
  const params = paramsOf(ctx, spec.params);
  if (!params) throw tokenInvalid();
  const checked = (await spec.check?.(ctx, params)) as T;
  const action = ctx.url.pathname;
  const headers = { 'cache-control': 'no-store', 'referrer-policy': 'same-origin' };
  if (ctx.wantsJson) {
    const json = spec.json ? spec.json(ctx, params, checked) : { confirm: { method: 'POST', action, fields: params } };
    return { status: 200, json, headers };
  }
  const { token: csrfToken, cookie } = await csrfFor(ctx);
  const hiddenFields = [hidden('csrfToken', csrfToken), ...Object.entries(params).map(([k, v]) => hidden(k, v))].join(
    '',
  );
  const html = await spec.page(ctx, { action, csrfToken, params, hiddenFields }, checked);
  // same-origin keeps the token out of Referer to other sites; no-referrer would make the form post `Origin: null`.
  return { status: 200, html, cookies: cookie ? [cookie] : [], headers };
}

/**
 * The route of an emailed link: `GET`/`HEAD` show the confirm page ({@link showEmailedLink}), `POST` (CSRF
 * token checked, the core's default) runs `spec.use`.
 */
export function emailedLinkRoute<T = void>(spec: EmailedLinkSpec<T>): PluginRoute {
  return {
    GET: (ctx) => showEmailedLink(ctx, spec),
    POST: spec.use,
    csrf: 'token',
    ...(spec.rateLimit ? { rateLimit: spec.rateLimit } : {}),
  };
}

/**
 * The URL of an emailed link to `path` under `basePath`, on the app's canonical origin (`baseURL`), never on
 * the request's Host (a forged Host cannot point a mail at another site).
 */
export function emailedLinkUrl(ctx: RouteContext, path: string, params: Record<string, string>): string {
  const url = new URL(`${ctx.origin}${ctx.auth.config.basePath}/${path}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.href;
}

/** A plain confirm page: a title, a sentence (text, escaped here) and one button. */
export function confirmLinkPage(input: {
  title: string;
  message: string;
  button: string;
  form: LinkForm;
  /** The page's language (`t.lang` of the translator the strings came from). Default `en`. */
  lang?: string;
}): string {
  return layout(
    input.title,
    `<h1>${escapeHtml(input.title)}</h1><p>${escapeHtml(input.message)}</p><form method="post" action="${escapeHtml(input.form.action)}">${input.form.hiddenFields}<button type="submit">${escapeHtml(input.button)}</button></form>`,
    input.lang,
  );
}
