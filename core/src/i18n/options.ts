/**
 * `createAuth({ locale })`: which languages the default pages speak, how one is picked, and the app's own strings.
 * @module
 */
import { AuthConfigError } from '../errors.js';

/** The languages every built-in catalog has. */
export const BUILT_IN_LOCALES = ['en', 'de', 'fr', 'es', 'ja'] as const;

/**
 * The `locale` option of `createAuth`: the language of the default pages (sign-in, sign-up, error, code and
 * two-factor pages, …), negotiated from `Accept-Language` (RFC 9110 §12.5.4, RFC 4647 lookup). JSON answers and
 * error codes are the same in every language. A bad value throws `INVALID_CONFIG` at `createAuth`.
 *
 * @example
 * ```ts
 * createAuth({
 *   adapter,
 *   locale: { default: 'de', supported: ['de', 'en', 'it'], messages: { it: { 'signIn.title': 'Accedi' } } },
 * });
 * ```
 */
export interface LocaleOptions {
  /** The language when the request asks for none that is supported. A BCP 47 tag. Default `'en'`. */
  default?: string;
  /**
   * The languages on offer (BCP 47 tags). Default: the built-in `en`, `de`, `fr`, `es`, `ja`, plus every language
   * named in `messages`. `['de']` serves German to everyone; leaving a language out turns it off.
   */
  supported?: readonly string[];
  /**
   * Picks the language from the request before `Accept-Language` is read (a cookie, a path prefix, the user's
   * setting): return a tag, or undefined to negotiate. A tag that is not supported is looked up like a header
   * range (`de-AT` → `de`), else ignored. Called once per request; if it throws, the header decides.
   */
  detect?: (request: Request) => string | undefined | null;
  /**
   * Strings of your own, by language and message id (`{ de: { 'signIn.title': 'Anmelden' } }`): they win over the
   * built-in ones, and a language without a built-in catalog (`it`) gets what you give and English for the rest.
   * Keep a message's `{placeholders}`.
   */
  messages?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** The language a page is rendered in and the app's overrides: what a translator needs. */
export interface PageLocale {
  /** A supported tag, spelled as configured (`de`, `pt-BR`). */
  readonly lang: string;
  /** `locale.messages`, by lower-cased tag. */
  readonly overrides: LocalePolicy['overrides'];
}

/** {@link LocaleOptions}, checked, with defaults applied. */
export interface LocalePolicy {
  readonly default: string;
  readonly supported: readonly string[];
  readonly detect: ((request: Request) => string | undefined | null) | undefined;
  /** The overrides by lower-cased tag. */
  readonly overrides: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

const TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;

const fail = (why: string): never => {
  throw new AuthConfigError(`Invalid auth config: locale.${why}`);
};

/** The policy without a `locale` option: the built-in languages, English by default. */
export const DEFAULT_LOCALE_POLICY: LocalePolicy = /* @__PURE__ */ Object.freeze({
  default: 'en',
  supported: BUILT_IN_LOCALES,
  detect: undefined,
  overrides: Object.freeze({}),
});

/**
 * Checks and resolves `createAuth({ locale })`.
 *
 * @throws AuthConfigError (`INVALID_CONFIG`) for a tag that is not BCP 47 shaped, a `default` outside `supported`,
 *   a `detect` that is not a function, or a message that is not a string.
 * @example
 * ```ts
 * resolveLocaleOptions({ default: 'de', supported: ['de', 'en'] });
 * ```
 */
export function resolveLocaleOptions(options: LocaleOptions | undefined): LocalePolicy {
  if (options === undefined) return DEFAULT_LOCALE_POLICY;
  if (typeof options !== 'object' || options === null) fail('must be an object');
  const overrides: Record<string, Record<string, string>> = Object.create(null);
  for (const [lang, table] of Object.entries(options.messages ?? {})) {
    if (!TAG.test(lang)) fail(`messages: "${lang}" is not a language tag`);
    const copy: Record<string, string> = Object.create(null);
    for (const [key, text] of Object.entries(table ?? {})) {
      if (typeof text !== 'string') fail(`messages.${lang}["${key}"] must be a string`);
      copy[key] = text;
    }
    overrides[lang.toLowerCase()] = Object.freeze(copy);
  }
  const named = Object.keys(options.messages ?? {});
  const supported = [...(options.supported ?? [...BUILT_IN_LOCALES, ...named])];
  for (const tag of supported)
    if (typeof tag !== 'string' || !TAG.test(tag)) fail(`supported: "${tag}" is not a language tag`);
  if (supported.length === 0) fail('supported must name at least one language');
  const fallback = options.default ?? (supported.includes('en') ? 'en' : supported[0]!);
  if (!supported.some((s) => s.toLowerCase() === String(fallback).toLowerCase()))
    fail(`default "${fallback}" must be one of supported (${supported.join(', ')})`);
  if (options.detect !== undefined && typeof options.detect !== 'function') fail('detect must be a function');
  return Object.freeze({
    default: fallback,
    supported: Object.freeze([...new Set(supported)]),
    detect: options.detect,
    overrides: Object.freeze(overrides),
  });
}
