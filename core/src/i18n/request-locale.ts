/**
 * The locale of one request's pages: the app's `detect`, else `Accept-Language`, else the default; read once per
 * request.
 * @module
 */
import type { RouteContext } from '../contract/types.js';
import { lookupLocale, negotiateLocale } from './accept-language.js';
import { DEFAULT_LOCALE_POLICY, type LocalePolicy, type PageLocale } from './options.js';

export type { PageLocale } from './options.js';

const cache = new WeakMap<Request, PageLocale>();

/** The locale of `request` under `policy` (see `LocaleOptions`). */
export function localeOfRequest(request: Request, policy: LocalePolicy = DEFAULT_LOCALE_POLICY): PageLocale {
  let detected: string | undefined | null;
  try {
    detected = policy.detect?.(request);
  } catch {
    detected = undefined; // A failing detect falls back to the header: a page in another language beats no page.
  }
  const chosen = typeof detected === 'string' ? lookupLocale(detected, policy.supported) : undefined;
  const lang = chosen ?? negotiateLocale(request.headers.get('accept-language'), policy.supported, policy.default);
  return { lang, overrides: policy.overrides };
}

/**
 * The locale a route's pages speak (the auth instance's `locale` option applied to the request), read once per
 * request.
 *
 * @example
 * ```ts
 * const { lang } = pageLocale(ctx); // 'de' for `Accept-Language: de-AT`
 * ```
 */
export function pageLocale(ctx: Pick<RouteContext, 'auth' | 'request'>): PageLocale {
  let locale = cache.get(ctx.request);
  if (!locale) cache.set(ctx.request, (locale = localeOfRequest(ctx.request, ctx.auth.locale)));
  return locale;
}
