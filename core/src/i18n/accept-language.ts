/**
 * `Accept-Language` (RFC 9110 §12.5.4) parsed into weighted language ranges, and the "lookup" matching of RFC 4647
 * §3.4 against the locales an app supports. Bounded: only the first {@link MAX_HEADER_CHARS} characters and
 * {@link MAX_RANGES} ranges are read, and a malformed range is skipped, so a huge or garbage header costs little and
 * never throws.
 * @module
 */

/** How much of the header is read, in characters. */
export const MAX_HEADER_CHARS = 1024;
/** How many ranges are read. */
export const MAX_RANGES = 32;

/** One language range with its weight, as the header lists it. */
export interface LanguageRange {
  /** The range, lower-cased: `de-at`, `en`, or `*`. */
  range: string;
  /** The weight `q`, 0 to 1 (1 when absent). */
  q: number;
}

// language-range = (1*8ALPHA *("-" 1*8alphanum)) / "*"  (RFC 4647 §2.1); weight = OWS ";" OWS "q=" qvalue.
const RANGE = /^\s*(\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)\s*(?:;\s*[qQ]\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*)?$/;

/**
 * The ranges of an `Accept-Language` value with q > 0, highest weight first (ties keep the header's order).
 * Malformed entries are skipped; `null`, `undefined` or an empty value gives `[]`.
 *
 * @param header - the header's value (any length: only the first 1024 characters and 32 ranges are read).
 * @returns the acceptable ranges, lower-cased, best first.
 * @example
 * ```ts
 * parseAcceptLanguage('fr;q=0.5, de-AT, *;q=0.1');
 * // [{ range: 'de-at', q: 1 }, { range: 'fr', q: 0.5 }, { range: '*', q: 0.1 }]
 * ```
 */
export function parseAcceptLanguage(header: string | null | undefined): LanguageRange[] {
  if (typeof header !== 'string' || header.length === 0) return [];
  const out: LanguageRange[] = [];
  for (const item of header.slice(0, MAX_HEADER_CHARS).split(',', MAX_RANGES)) {
    const m = RANGE.exec(item);
    if (!m) continue;
    const q = m[2] === undefined ? 1 : Number(m[2]);
    if (q > 0) out.push({ range: m[1]!.toLowerCase(), q });
  }
  // Array.prototype.sort is stable: equal weights keep the header's order.
  return out.sort((a, b) => b.q - a.q);
}

/**
 * The supported locale an `Accept-Language` value asks for, by RFC 4647 §3.4 lookup: each range in weight order is
 * tried as is, then with its last subtag cut off (`de-AT` → `de`), until one is supported; `*` stands for
 * `fallback`. Comparison ignores case; the answer is spelled as in `supported`.
 *
 * @param header - the request's `Accept-Language` value, if any.
 * @param supported - the locales on offer, e.g. `['en', 'de', 'pt-BR']`.
 * @param fallback - answered when nothing matches (and for `*`).
 * @returns one of `supported`, or `fallback`.
 * @example
 * ```ts
 * negotiateLocale('de-AT,de;q=0.9,en;q=0.5', ['en', 'de'], 'en'); // 'de'
 * negotiateLocale('it', ['en', 'de'], 'en'); // 'en'
 * ```
 */
export function negotiateLocale(
  header: string | null | undefined,
  supported: readonly string[],
  fallback: string,
): string {
  for (const { range } of parseAcceptLanguage(header)) {
    if (range === '*') return fallback;
    const found = lookupLocale(range, supported);
    if (found !== undefined) return found;
  }
  return fallback;
}

/**
 * `tag` or its closest shorter prefix among `supported` (`de-AT` → `de`), ignoring case; undefined when none.
 *
 * @example
 * ```ts
 * lookupLocale('DE-at', ['en', 'de']); // 'de'
 * ```
 */
export function lookupLocale(tag: string, supported: readonly string[]): string | undefined {
  let candidate = tag.toLowerCase();
  for (;;) {
    const hit = supported.find((s) => s.toLowerCase() === candidate);
    if (hit !== undefined) return hit;
    const cut = candidate.lastIndexOf('-');
    if (cut <= 0) return undefined;
    candidate = candidate.slice(0, cut);
    // A single-letter subtag (an extension's singleton) does not stand alone (RFC 4647 §3.4).
    if (candidate.length >= 2 && candidate[candidate.length - 2] === '-') candidate = candidate.slice(0, -2);
  }
}
