/**
 * Custom field values from a request body (form fields or JSON, as `readFormBody` gives them: strings), for
 * sign-up and `POST {basePath}/account/update`.
 * @module
 * @internal
 */
import { forbiddenCharacter } from '../input/text.js';
import type { UserField } from './definitions.js';
import { USER_FIELD_ERRORS } from './errors.js';

/** The longest `string` field value, in characters (code points); 255 for a `unique` one. */
export const FIELD_TEXT_MAX_LENGTH = 1000;
const TRUE = new Set(['true', 'on', '1', 'yes']);
const FALSE = new Set(['false', 'off', '0', 'no']);
/** A date, or a date and time (RFC 3339 / ISO 8601 as `Date.parse` reads it). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;

const invalid = (field: UserField, why: string) =>
  USER_FIELD_ERRORS.error('USER_FIELD_INVALID', `"${field.name}" ${why}`);

/**
 * A form value as the field's type: text as given (NFC, without invisible or control characters), numbers in
 * JavaScript syntax, booleans as `true`/`false` (`on`/`off`, `1`/`0`, `yes`/`no`), dates as ISO 8601, and
 * `string[]` as a JSON array of strings.
 * @throws AuthError `USER_FIELD_INVALID` (400).
 */
export function parseFieldValue(field: UserField, raw: string): unknown {
  const text = raw.trim();
  switch (field.type) {
    case 'string': {
      const max = field.unique ? 255 : FIELD_TEXT_MAX_LENGTH;
      const value = raw.normalize('NFC');
      if ([...value].length > max) throw invalid(field, `must be at most ${max} characters`);
      const bad = forbiddenCharacter(value, true);
      if (bad) throw invalid(field, `contains an invisible, control or direction character (${bad})`);
      return value;
    }
    case 'number': {
      const value = text === '' ? Number.NaN : Number(text);
      if (!Number.isFinite(value)) throw invalid(field, 'must be a number');
      return value;
    }
    case 'boolean': {
      const lower = text.toLowerCase();
      if (TRUE.has(lower)) return true;
      if (FALSE.has(lower)) return false;
      throw invalid(field, 'must be true or false');
    }
    case 'date': {
      const value = ISO_DATE.test(text) ? new Date(text) : new Date(Number.NaN);
      if (Number.isNaN(value.getTime())) throw invalid(field, 'must be an ISO 8601 date, e.g. 2026-01-31');
      return value;
    }
    case 'string[]': {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
        throw invalid(field, 'must be a JSON array of strings, e.g. ["a","b"]');
      for (const item of value as string[]) parseFieldValue({ ...field, type: 'string', unique: false }, item);
      return value;
    }
  }
}

/**
 * The custom field values a sign-up (`mode: 'create'`) or an update (`'update'`) body sets. A field with
 * `input: false` in the body is refused; on create a `required` field without a `defaultValue` must be there
 * and non-empty, and an empty value means "unset" (the default applies); on update an absent field is
 * unchanged and an empty one clears it (refused for `required` fields).
 * @throws AuthError `USER_FIELD_NOT_INPUT`, `USER_FIELD_REQUIRED` or `USER_FIELD_INVALID` (400).
 */
export function fieldInput(
  body: Readonly<Record<string, string>>,
  fields: readonly UserField[],
  mode: 'create' | 'update',
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const raw = Object.hasOwn(body, field.name) ? body[field.name] : undefined;
    if (raw !== undefined && !field.input)
      throw USER_FIELD_ERRORS.error('USER_FIELD_NOT_INPUT', `"${field.name}" cannot be set by the client`);
    if (!field.input) continue;
    const empty = raw === undefined || raw.trim() === '';
    if (empty) {
      const mustGive = mode === 'create' ? field.defaultValue === undefined : raw !== undefined;
      if (field.required && mustGive)
        throw USER_FIELD_ERRORS.error('USER_FIELD_REQUIRED', `"${field.name}" is required`);
      if (mode === 'update' && raw !== undefined) out[field.name] = null;
      continue;
    }
    out[field.name] = parseFieldValue(field, raw);
  }
  return out;
}
