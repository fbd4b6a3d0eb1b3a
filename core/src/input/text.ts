/**
 * Input hygiene for the two kinds of free text the kit stores and echoes back: email addresses and display names.
 * One parser of each, used everywhere one is read (routes, plugins, `passwordAccounts`, OAuth profiles), so a
 * character refused in one place is refused in all.
 *
 * Refused in both: control characters (`\p{Cc}`: C0 incl. NUL, DEL, C1), format characters (`\p{Cf}`: bidi
 * controls U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C; zero-width U+200B–U+200D, U+2060, U+FEFF; the soft
 * hyphen U+00AD; tags U+E0000–U+E007F …), the line and paragraph separators U+2028/U+2029 (`\p{Zl}`, `\p{Zp}`),
 * surrogates, private-use and unassigned code points (`\p{Cs}`, `\p{Co}`, `\p{Cn}`), noncharacters, and the other
 * default-ignorable code points (Hangul fillers U+115F/U+1160/U+3164/U+FFA0, Khmer U+17B4/U+17B5, combining
 * grapheme joiner U+034F …), which render as nothing (Unicode TR36 §3.5, UTS #39). Nothing is removed silently: a
 * value with such a character is refused whole.
 * @module
 */
import { AuthError } from '../errors.js';
import { authError } from '../errors/auth-error.js';

/**
 * Characters that are invisible, reorder text, end a line, or have no assigned meaning. `u` flag property escapes
 * (ECMAScript 2018), so the classes follow the Unicode version of the runtime.
 */
const FORBIDDEN =
  /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}]/u;

/**
 * Whitespace of any kind (Unicode `White_Space` and space separators) and the RFC 5322 §3.2.3 specials that need
 * quoting (`( ) < > [ ] : ; \ , "`; `@` and `.` are checked by position). Quoted local parts are refused: no
 * address the kit stores can spell another record's storage key (`purpose:user:address`).
 */
const NOT_IN_ADDRESS = /[\s\p{Zs},;:<>[\]"\\()]/u;

/** The largest parts of an address, in UTF-8 octets (RFC 5321 §4.5.3.1.1–2; 254 for the path, RFC 3696 errata 1690). */
export const EMAIL_LIMITS = Object.freeze({ local: 64, domain: 255, total: 254 });

/**
 * What trimming removes: ASCII whitespace and space separators, never a forbidden character (`String#trim` would
 * also drop U+FEFF and U+2028/U+2029, hiding them instead of refusing them).
 */
const EDGES = /^[\t\n\v\f\r \p{Zs}]+|[\t\n\v\f\r \p{Zs}]+$/gu;
const trim = (text: string) => text.replace(EDGES, '');

const utf8 = new TextEncoder();
const octets = (text: string) => utf8.encode(text).length;

/**
 * The first character of `text` that {@link parseEmailAddress} and {@link parseDisplayName} refuse, as `U+XXXX`,
 * or null when there is none. For names, the joiners and variation selectors a name may carry in context are
 * accepted when `allowInContext` is true.
 */
export function forbiddenCharacter(text: string, allowInContext = false): string | null {
  if (!FORBIDDEN.test(text)) return null;
  const points = [...text];
  for (let i = 0; i < points.length; i++) {
    const c = points[i]!;
    if (!FORBIDDEN.test(c)) continue;
    if (allowInContext && allowedInName(points, i)) continue;
    return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return null;
}

/** Scripts where a joiner between two letters is invisible and spoofs a plain word (UTS #39 confusable scripts). */
const LATIN_LIKE = /[\p{Script_Extensions=Latin}\p{Script_Extensions=Greek}\p{Script_Extensions=Cyrillic}]/u;
const LETTER = /^\p{L}$/u;
const MARK = /^\p{M}$/u;
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
const EMOJI_TAIL = /^(?:\u{FE0F}|[\u{1F3FB}-\u{1F3FF}])$/u;

/**
 * The zero-width joiners and emoji variation selectors a real name needs (RFC 5892 Appendix A.1/A.2 in spirit):
 * U+200C/U+200D after a letter (and its combining marks, such as a virama) and before a letter, both of scripts
 * other than Latin, Greek and Cyrillic (Persian, Indic scripts), U+200D between emoji (ZWJ sequences), and
 * U+FE0E/U+FE0F right after a pictograph.
 */
function allowedInName(points: string[], i: number): boolean {
  const c = points[i]!;
  const before = points[i - 1] ?? '';
  const after = points[i + 1] ?? '';
  if (c === '\u200C' || c === '\u200D') {
    // The letter the joiner follows, past its combining marks (a virama in Indic scripts), and the letter after it.
    let b = i - 1;
    while (b >= 0 && MARK.test(points[b]!)) b--;
    const base = points[b] ?? '';
    const joinsLetters = LETTER.test(base) && LETTER.test(after);
    if (joinsLetters && !LATIN_LIKE.test(base) && !LATIN_LIKE.test(after)) return true;
    const emojiBefore = PICTOGRAPH.test(before) || (EMOJI_TAIL.test(before) && PICTOGRAPH.test(points[i - 2] ?? ''));
    return c === '\u200D' && emojiBefore && PICTOGRAPH.test(after);
  }
  return (c === '\uFE0E' || c === '\uFE0F') && PICTOGRAPH.test(before);
}

/**
 * Parses an email address as the kit stores and compares it: trimmed, lower-cased, NFC (RFC 6532 §3.1).
 *
 * Accepted: exactly one `@`, a local part of 1–64 octets and a domain of 1–255 octets (UTF-8), at most 254 octets
 * in all (RFC 5321 §4.5.3.1). Refused: any character {@link forbiddenCharacter} names (controls incl. NUL, bidi
 * controls, zero-width and other format characters, line separators, unassigned and private-use code points),
 * whitespace of any kind inside, and the characters `, ; < > " \ ( )`, which would let one value name several
 * recipients or a display name in a mail header. Quoted local parts are therefore not accepted.
 *
 * Idempotent: a returned address parses to itself.
 * @param value - anything; only a string can be an address.
 * @returns the address, or null when `value` is not one (callers answer 400 `INVALID_REQUEST`).
 * @example
 * ```ts
 * parseEmailAddress('  Ada@Example.COM ') // 'ada@example.com'
 * parseEmailAddress('ada@example.com\u202E') // null
 * ```
 */
export function parseEmailAddress(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 4 * EMAIL_LIMITS.total) return null;
  const address = trim(value).toLowerCase().normalize('NFC');
  const at = address.indexOf('@');
  if (at < 1 || at !== address.lastIndexOf('@') || at === address.length - 1) return null;
  if (NOT_IN_ADDRESS.test(address) || forbiddenCharacter(address) !== null) return null;
  const total = octets(address);
  const local = octets(address.slice(0, at));
  if (total > EMAIL_LIMITS.total || local > EMAIL_LIMITS.local || total - local - 1 > EMAIL_LIMITS.domain) return null;
  return address;
}

/**
 * Parses an email address or throws.
 * @param field - the field name the message names. Default `email`.
 * @throws AuthError `INVALID_REQUEST` (400) "Enter a valid email address" when {@link parseEmailAddress} refuses it.
 */
export function requireEmailAddress(value: unknown, field = 'email'): string {
  const address = parseEmailAddress(value);
  if (address === null) throw authError('INVALID_REQUEST', `Enter a valid email address in \`${field}\``);
  return address;
}

/** The longest user name the kit stores, in characters (registration, admin create). */
export const USER_NAME_MAX_LENGTH = 200;

/** Options of {@link parseDisplayName}. */
export interface DisplayNameOptions {
  /** Largest name in characters (code points), after trimming. Required: each caller has its own column. */
  maxLength: number;
  /** The field name error messages use. Default `name`. */
  field?: string;
}

/**
 * Parses a display name (a user's or an organization's): trimmed and NFC-normalized (canonically equivalent
 * spellings become one, nothing visible changes; NFKC is not applied, as it would rewrite full-width and
 * compatibility letters).
 *
 * Refused (thrown, never stripped): any character {@link forbiddenCharacter} names, except U+200C/U+200D between
 * two letters or marks of scripts other than Latin/Greek/Cyrillic (Persian, Indic names), U+200D inside an emoji
 * ZWJ sequence and U+FE0E/U+FE0F after a pictograph; and names longer than `maxLength` code points. Inner spaces
 * are kept as given.
 *
 * Idempotent: a returned name parses to itself.
 * @param value - a string, or `undefined`/`null` for no name.
 * @returns the name, or null for an absent or blank one.
 * @throws AuthError `INVALID_REQUEST` (400) naming the field and the refused character (`U+202E`), or the limit.
 * @example
 * ```ts
 * parseDisplayName('  Ada Lovelace ', { maxLength: 100 }) // 'Ada Lovelace'
 * parseDisplayName('Ada\u202Eecalevol', { maxLength: 100 }) // throws INVALID_REQUEST
 * ```
 */
export function parseDisplayName(value: unknown, options: DisplayNameOptions): string | null {
  const field = options.field ?? 'name';
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidName(`\`${field}\` must be text`);
  const tooLong = () => invalidName(`\`${field}\` must be at most ${options.maxLength} characters`);
  if (value.length > 4 * options.maxLength + 64) throw tooLong();
  const name = trim(value).normalize('NFC');
  if (name === '') return null;
  const bad = forbiddenCharacter(name, true);
  if (bad) throw invalidName(`\`${field}\` contains an invisible, control or direction character (${bad})`);
  if ([...name].length > options.maxLength) throw tooLong();
  return name;
}

/**
 * A display name from a source the user does not type into (an identity provider's profile): the parsed name, or
 * null when {@link parseDisplayName} would refuse it, so a sign-in is never failed for a name.
 */
export function displayNameOrNull(value: unknown, maxLength: number): string | null {
  try {
    return parseDisplayName(value, { maxLength });
  } catch {
    return null;
  }
}

function invalidName(message: string): AuthError {
  return authError('INVALID_REQUEST', message);
}
