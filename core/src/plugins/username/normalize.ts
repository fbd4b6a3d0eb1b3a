/**
 * Usernames: the fold that makes two spellings of one name equal, and the checks that refuse names people could
 * not tell apart.
 * @module
 */

/**
 * Characters refused anywhere in a username, before and after the fold: format characters (`\p{Cf}`: U+200B zero
 * width space, U+200C/D joiners, U+2060 word joiner, U+FEFF, the bidi controls U+200E/F, U+202A–E, U+2066–9,
 * U+061C), controls, separators and white space, variation selectors, the combining grapheme joiner and the
 * Hangul fillers (blank-looking letters).
 */
const INVISIBLE = new RegExp(
  [
    '[\\p{Cf}\\p{Cc}\\p{Z}\\p{White_Space}\\u115F\\u1160\\u3164\\uFFA0]',
    // Marks that combine with what precedes them, one alternative each: the grapheme joiner, variation selectors.
    '\\u034F',
    '[\\u17B4-\\u17B5]',
    '[\\u180B-\\u180F]',
    '[\\uFE00-\\uFE0F]',
    '[\\u{E0100}-\\u{E01EF}]',
  ].join('|'),
  'u',
);

/** Scripts whose letters look alike (Latin `a`, Cyrillic `а`, Greek `α`…): a name may use one of them only. */
const SCRIPTS = [
  /\p{Script=Latin}/u,
  /\p{Script=Cyrillic}/u,
  /\p{Script=Greek}/u,
  /\p{Script=Armenian}/u,
  /\p{Script=Cherokee}/u,
  /\p{Script=Georgian}/u,
  /\p{Script=Coptic}/u,
];

/** The default rule on a folded name: `a`–`z`, `0`–`9`, `_` and `.`, no leading, trailing or doubled `.`. */
export const DEFAULT_USERNAME_PATTERN = /^(?!\.)(?!.*\.\.)(?!.*\.$)[a-z0-9_.]+$/;

/** The fold: Unicode NFKC (compatibility forms: full-width `Ａ` is `A`, `ﬁ` is `fi`), then lower case, then NFKC again. */
export function foldUsername(input: string): string {
  return input.normalize('NFKC').toLowerCase().normalize('NFKC');
}

/** Whether `text` holds a refused invisible, format, control or space character. */
export function hasInvisible(text: string): boolean {
  return INVISIBLE.test(text);
}

/** Whether the letters of `text` come from more than one of the look-alike scripts (Latin `a` beside Cyrillic `а`). */
export function mixesScripts(text: string): boolean {
  let seen = -1;
  for (const char of text) {
    const script = SCRIPTS.findIndex((re) => re.test(char));
    if (script === -1) continue;
    if (seen !== -1 && seen !== script) return true;
    seen = script;
  }
  return false;
}

/** A checked username: `username` the folded key (unique), `displayUsername` as typed (outer ASCII spaces trimmed, NFC). */
export interface ParsedUsername {
  username: string;
  displayUsername: string;
}

/** What {@link parseUsername} applies. */
export interface UsernameRules {
  minLength: number;
  maxLength: number;
  /** Replaces the default character rule ({@link DEFAULT_USERNAME_PATTERN}) on the folded name. */
  validator?: ((username: string) => boolean) | undefined;
  /** Applied to the folded name (after NFKC and lower case). */
  normalize?: ((username: string) => string) | undefined;
}

/**
 * Checks and folds a username as typed. Refused (null): not a string; an invisible, format, control or space
 * character (before or after the fold); letters of more than one look-alike script; a folded length outside
 * `minLength`–`maxLength` code points; a folded name the rule refuses (the default allows `[a-z0-9_.]`, so any
 * non-ASCII look-alike such as Cyrillic `а` is refused whole, and `validator` replaces that rule).
 */
export function parseUsername(input: unknown, rules: UsernameRules): ParsedUsername | null {
  if (typeof input !== 'string') return null;
  // Only ASCII spaces are trimmed: `trim()` would also drop U+FEFF and other invisibles, which are refused instead.
  const displayUsername = input.replace(/^ +| +$/g, '').normalize('NFC');
  if (displayUsername.length === 0 || displayUsername.length > rules.maxLength * 4) return null;
  if (hasInvisible(displayUsername)) return null;
  let username = foldUsername(displayUsername);
  if (rules.normalize) username = rules.normalize(username);
  if (typeof username !== 'string' || hasInvisible(username) || mixesScripts(username)) return null;
  const length = [...username].length;
  if (length < rules.minLength || length > rules.maxLength) return null;
  const allowed = rules.validator ? rules.validator(username) : DEFAULT_USERNAME_PATTERN.test(username);
  return allowed === true ? { username, displayUsername } : null;
}
