/**
 * Custom field values on user records, shared by every storage adapter: checked on the way in, copied on the
 * way out, `null` when unset, defaults filled for new users.
 * @module
 * @internal
 */
import { defaultOf, isValueOf, staticDefault, type UserField } from './definitions.js';

type Values = Record<string, unknown>;

/** A copy of a stored value (a fresh `Date` or array), or null. */
function copyValue(value: unknown): unknown {
  if (value == null) return null;
  if (value instanceof Date) return new Date(value.getTime());
  if (Array.isArray(value)) return [...(value as unknown[])];
  return value;
}

/** `value` when it is null or a value of the field's type. @throws TypeError otherwise. */
function checked(field: UserField, value: unknown): unknown {
  if (value === null || isValueOf(field.type, value)) return copyValue(value);
  throw new TypeError(`User field "${field.name}" takes a ${field.type} or null, not ${JSON.stringify(value)}`);
}

/**
 * The field values of a new user: each given value (checked), else the field's default, else null.
 * @throws TypeError for a value of the wrong type.
 */
export function newUserFieldValues(input: object, fields: readonly UserField[]): Values {
  const given = input as Values;
  const out: Values = {};
  for (const field of fields) {
    const value = given[field.name];
    out[field.name] = value !== undefined ? checked(field, value) : copyValue(defaultOf(field));
  }
  return out;
}

/**
 * The field values a patch sets: only its defined keys (`undefined` = unchanged, `null` clears).
 * @throws TypeError for a value of the wrong type.
 */
export function patchedFieldValues(patch: object, fields: readonly UserField[]): Values {
  const given = patch as Values;
  const out: Values = {};
  for (const field of fields) if (given[field.name] !== undefined) out[field.name] = checked(field, given[field.name]);
  return out;
}

/** Copies of the field values of a stored user, null where unset. */
export function copyFieldValues(user: object, fields: readonly UserField[]): Values {
  const from = user as Values;
  const out: Values = {};
  for (const field of fields) out[field.name] = copyValue(from[field.name]);
  return out;
}

/**
 * What adding the fields' columns does to stored users (the memory adapter's `migrate()`): each field a user
 * lacks takes its static default (see `staticDefault`), else null.
 */
export function addMissingFieldValues(user: object, fields: readonly UserField[]): void {
  const values = user as Values;
  for (const field of fields) if (!Object.hasOwn(values, field.name)) values[field.name] = staticDefault(field) ?? null;
}
