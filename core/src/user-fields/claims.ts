/**
 * Custom user fields in JWT sessions: the token carries them under one claim, `user_fields` (by field name, dates
 * as ISO 8601 strings, unset fields as null), and the session user reads them back with their types.
 * @module
 * @internal
 */
import { isValueOf, type UserField } from './definitions.js';

/** The claim holding the custom field values. */
export const USER_FIELDS_CLAIM = 'user_fields';

/** The `user_fields` claim of `user` (dates as ISO strings), or undefined without fields. */
export function fieldClaims(user: object, fields: readonly UserField[]): Record<string, unknown> | undefined {
  if (fields.length === 0) return undefined;
  const values = user as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    out[field.name] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  return out;
}

/**
 * The field values of a token's `user_fields` claim, with their types (ISO strings back to `Date`); a field the
 * claim lacks or holds a value of another type for reads null. Empty without fields.
 */
export function fieldsFromClaims(claim: unknown, fields: readonly UserField[]): Record<string, unknown> {
  const given = claim !== null && typeof claim === 'object' ? (claim as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    let value = given[field.name];
    if (field.type === 'date' && typeof value === 'string') value = new Date(value);
    out[field.name] = value !== null && value !== undefined && isValueOf(field.type, value) ? value : null;
  }
  return out;
}
