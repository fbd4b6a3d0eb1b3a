/**
 * Phone numbers to E.164 (ITU-T E.164: `+`, country code, national number), parsed and validated with
 * libphonenumber-js (full metadata).
 * @module
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/** Longest input looked at, in characters (an E.164 number has at most 15 digits; room for separators). */
const MAX_INPUT = 40;
/** What a typed number may hold once NFKC-normalised: digits, `+` and the usual separators. */
const ALLOWED = /^[0-9+\-(). /]+$/;

/**
 * The E.164 form of `input` (`+442079460018`), or null when it is no valid number. Accepts the international form
 * (`+44 20 7946 0018`, `0044 …` with a default country whose international prefix is `00`) and, with
 * `defaultCountry`, the national one (`020 7946 0018`), with spaces, dashes, dots, slashes and parentheses.
 * Full-width digits are read as digits (Unicode NFKC); any other character (letters, an extension, invisible or
 * format characters) makes the number invalid, so one number has one spelling that passes.
 * @example
 * ```ts
 * toE164('020 7946 0018', 'GB'); // '+442079460018'
 * toE164('+44 (20) 7946-0018'); // '+442079460018'
 * toE164('+44 20 7946 001'); // null (too short for a London number)
 * ```
 */
export function toE164(input: unknown, defaultCountry?: CountryCode): string | null {
  if (typeof input !== 'string' || input.length > MAX_INPUT) return null;
  const text = input.normalize('NFKC').trim();
  if (!ALLOWED.test(text)) return null;
  const parsed = parsePhoneNumberFromString(text, defaultCountry ? { defaultCountry } : undefined);
  if (!parsed || parsed.ext || !parsed.isValid()) return null;
  return parsed.number;
}
