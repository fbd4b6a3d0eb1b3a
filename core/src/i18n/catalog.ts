/**
 * Message catalogs for the default pages: `defineMessages(id, { en, de, … })` registers a table of strings keyed by
 * stable message ids, and `.for(ctx)` gives a translator in the request's locale. English is complete and the source
 * of truth; another language falls back to English key by key; the app's `locale.messages` overrides win over both.
 * @module
 */
import type { RouteContext } from '../contract/types.js';
import { pageLocale, type PageLocale } from './request-locale.js';
import { escapeHtml } from '../pages/html.js';

/** One language's strings, by message id. Placeholders are `{name}`. */
export type Messages<K extends string> = { readonly [key in K]: string };

/** A catalog's languages: `en` complete, any other language (a BCP 47 tag) complete or partial. */
export interface MessageCatalogs<K extends string> {
  readonly en: Messages<K>;
  readonly [lang: string]: Partial<Messages<K>> | undefined;
}

/** Values put into `{name}` placeholders. */
export type MessageParams = Readonly<Record<string, string | number>>;

/**
 * A catalog's strings in one locale: `t(id, params)` is the text (not HTML-escaped: escape it where it goes into a
 * page), `t.lang` the locale it was asked for (put it in `layout(title, content, t.lang)`).
 */
export interface Translator<K extends string> {
  (key: K, params?: MessageParams): string;
  /** The negotiated locale, e.g. `de`: what the page's `<html lang>` says. */
  readonly lang: string;
  /** The locale itself: hand it on to another catalog (`otherMessages.for(t.locale)`) or a sign-in form. */
  readonly locale: PageLocale;
  /**
   * The message as HTML, escaped. `markup` names placeholders that are not plain text: a list of names puts their
   * values (escaped) in `<strong>`, so a name or an address stands out wherever the language puts it; a record puts
   * its HTML (already safe, e.g. a link) in place of each named placeholder.
   */
  html(key: K, params?: MessageParams, markup?: readonly string[] | Readonly<Record<string, string>>): string;
}

/** A registered catalog (see {@link defineMessages}). */
export interface MessageCatalog<K extends string> {
  readonly id: string;
  readonly catalogs: MessageCatalogs<K>;
  /**
   * The translator for a request (its negotiated locale and the app's overrides), or for a {@link PageLocale}
   * (what a sign-in method's `signInForm` gets as `locale`). Without one, English.
   */
  for(source?: LocaleSource): Translator<K>;
}

const registry = new Map<string, MessageCatalogs<string>>();

/** Every catalog registered so far, by id (the core's and every loaded plugin's): for tests and tooling. */
export function registeredCatalogs(): ReadonlyMap<string, MessageCatalogs<string>> {
  return registry;
}

/** The `{name}` placeholders of a message, sorted. */
export function placeholdersOf(message: string): string[] {
  return [...message.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
}

/**
 * `template` with each `{name}` replaced by `params[name]`; an unknown name stays as written. Not HTML-escaped.
 *
 * @example
 * ```ts
 * formatMessage('Welcome back, {name}.', { name: 'Ada' }); // 'Welcome back, Ada.'
 * ```
 */
export function formatMessage(template: string, params?: MessageParams): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** `pt-BR` → `['pt-br', 'pt', 'en']`: where a key is looked up, most specific first. */
function chainOf(lang: string): string[] {
  const chain: string[] = [];
  for (let tag = lang.toLowerCase(); tag; tag = tag.slice(0, Math.max(0, tag.lastIndexOf('-')))) chain.push(tag);
  if (!chain.includes('en')) chain.push('en');
  return chain;
}

const ENGLISH: PageLocale = { lang: 'en', overrides: {} };

/**
 * Where a translator's language comes from: a route's context (its request under the auth's `locale` option), a
 * {@link PageLocale}, or nothing (English).
 */
export type LocaleSource =
  (Pick<RouteContext, 'auth'> & { readonly request?: Request | undefined }) | PageLocale | undefined;

function localeOf(source: LocaleSource): PageLocale {
  if (source === undefined) return ENGLISH;
  if (!('auth' in source)) return source;
  return source.request ? pageLocale({ auth: source.auth, request: source.request }) : ENGLISH;
}

/**
 * The text a page shows for a refused request: the `code.<CODE>` message of the error's stable code in the page's
 * language (the app's overrides, then the registered catalogs), else the error's own English message. The code
 * itself never changes with the language. `catalogs` are searched first (name the ones holding your codes, so a bundler
 * keeps them), then every registered catalog.
 *
 * @example
 * ```ts
 * errorMessageFor(ctx, error); // 'Der Code ist falsch oder abgelaufen' for OTP_INVALID under Accept-Language: de
 * ```
 */
export function errorMessageFor(
  source: LocaleSource,
  error: { readonly code: string; readonly message: string },
  ...catalogs: readonly Pick<MessageCatalog<string>, 'catalogs'>[]
): string {
  const found = lookUp(localeOf(source), `code.${error.code}`, catalogs);
  return found === undefined || found.lang === 'en' ? error.message : found.text;
}

/**
 * The message `id` in the page's language from any catalog (the app's overrides first, then `catalogs`, then every
 * registered one), or `fallback` when no catalog has it: for strings named by id in a plugin's declaration (a
 * sign-in link's or a provider's `messageIds`).
 *
 * @example
 * ```ts
 * messageFor(ctx, 'signIn.createAccount', 'Create an account'); // 'Konto erstellen' under Accept-Language: de
 * ```
 */
export function messageFor(
  source: LocaleSource,
  id: string | undefined,
  fallback: string,
  ...catalogs: readonly Pick<MessageCatalog<string>, 'catalogs'>[]
): string {
  if (id === undefined) return fallback;
  return lookUp(localeOf(source), id, catalogs)?.text ?? fallback;
}

function lookUp(
  locale: PageLocale,
  key: string,
  catalogs: readonly Pick<MessageCatalog<string>, 'catalogs'>[],
): { text: string; lang: string } | undefined {
  const tables = [...catalogs.map((c) => c.catalogs), ...registry.values()];
  for (const lang of chainOf(locale.lang)) {
    const own = locale.overrides[lang]?.[key];
    if (own !== undefined) return { text: own, lang: '' };
    for (const catalogs of tables) {
      const table = Object.entries(catalogs).find(([tag]) => tag.toLowerCase() === lang)?.[1];
      const text = table?.[key];
      if (text !== undefined) return { text, lang };
    }
  }
  return undefined;
}

/**
 * Registers a plugin's (or the core's) page strings and returns the handle its pages translate with. Message ids are
 * shared by every catalog and by the app's `locale.messages` overrides, so prefix them with the plugin
 * (`emailOtp.signIn.title`). Registering an id again replaces the earlier catalog.
 *
 * @param id - the catalog's name, e.g. `emailOtp` (listed by {@link registeredCatalogs}).
 * @param catalogs - `en` with every key, and the translations (`de`, `fr`, `es`, `ja` for the built-ins); each
 *   language keeps the English placeholders.
 * @returns the catalog, with `for(ctx)` giving a {@link Translator}.
 * @example
 * ```ts
 * const messages = defineMessages('greeter', {
 *   en: { 'greeter.hello': 'Hello, {name}' },
 *   de: { 'greeter.hello': 'Hallo, {name}' },
 * });
 * const t = messages.for(ctx);
 * return { status: 200, html: layout(t('greeter.hello', { name }), '…', t.lang) };
 * ```
 */
export function defineMessages<K extends string>(id: string, catalogs: MessageCatalogs<K>): MessageCatalog<K> {
  const byLang = new Map<string, Partial<Messages<K>>>();
  for (const [lang, table] of Object.entries(catalogs)) if (table) byLang.set(lang.toLowerCase(), table);
  registry.set(id, catalogs as MessageCatalogs<string>);
  return {
    id,
    catalogs,
    for(source) {
      const locale = localeOf(source);
      const chain = chainOf(locale.lang);
      const t = (key: K, params?: MessageParams): string => {
        for (const lang of chain) {
          const text = locale.overrides[lang]?.[key] ?? byLang.get(lang)?.[key];
          if (text !== undefined) return formatMessage(text, params);
        }
        return key;
      };
      const html = (
        key: K,
        params: MessageParams = {},
        markup: readonly string[] | Readonly<Record<string, string>> = [],
      ) => {
        // Each placeholder with markup becomes a marker no message holds, replaced after the text is escaped.
        const names = Array.isArray(markup) ? markup : Object.keys(markup);
        const inserted = (name: string) =>
          Array.isArray(markup)
            ? `<strong>${escapeHtml(params[name] ?? '')}</strong>`
            : (markup as Readonly<Record<string, string>>)[name]!;
        const marked: Record<string, string | number> = { ...params };
        for (const [i, name] of names.entries()) marked[name] = `\uE000${i}\uE001`;
        return escapeHtml(t(key, marked)).replace(/\uE000(\d+)\uE001/g, (_, i: string) => inserted(names[Number(i)]!));
      };
      return Object.assign(t, { lang: locale.lang, locale, html });
    },
  };
}
