/**
 * Checks `user.additionalFields` at `createAuth` and resolves each field to what storage and the routes need.
 * @module
 * @internal
 */
import { AuthConfigError } from '../errors.js';
import type { UserFieldDefinition, UserFieldType, UserFieldsConfig, UserFieldValue } from './types.js';

/** A custom field as storage and the routes use it. */
export interface UserField {
  /** The field's name on the user record (`planTier`). */
  readonly name: string;
  /** Its column in the users table (`plan_tier`). */
  readonly column: string;
  readonly type: UserFieldType;
  readonly required: boolean;
  readonly input: boolean;
  readonly unique: boolean;
  /** The default as given: a value, a function, or undefined. */
  readonly defaultValue: UserFieldDefinition['defaultValue'];
}

const TYPES: ReadonlySet<string> = new Set<UserFieldType>(['string', 'number', 'boolean', 'date', 'string[]']);
const OPTIONS: ReadonlySet<string> = new Set(['type', 'required', 'defaultValue', 'input', 'unique']);
const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;

/**
 * Names a field may not take: the user's own fields and columns (in either spelling), what sign-up and the
 * update route read from the body, and names JavaScript objects treat specially.
 */
const RESERVED: ReadonlySet<string> = new Set(
  [
    'id',
    'email',
    'email_normalized',
    'emailNormalized',
    'name',
    'name_lower',
    'nameLower',
    'image',
    'email_verified',
    'emailVerified',
    'role',
    'roles',
    'session_version',
    'sessionVersion',
    'password',
    'passwordHash',
    'password_hash',
    'csrfToken',
    'callbackUrl',
    'constructor',
    'prototype',
    'toString',
    'valueOf',
    'hasOwnProperty',
  ].map((n) => n.toLowerCase()),
);

/** Whether sign-up, the update route or the user record already use `name` (any case). */
export function isReservedFieldName(name: string): boolean {
  return RESERVED.has(name.toLowerCase());
}

/** `planTier` → `plan_tier`. */
export function columnOf(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

const fail = (message: string): never => {
  throw new AuthConfigError(`Invalid auth config: user.additionalFields: ${message}`);
};

/** Whether `value` is a value of `type` (a `Date` that is valid, a finite number, an array of strings). */
export function isValueOf(type: UserFieldType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return value instanceof Date && !Number.isNaN(value.getTime());
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
  }
}

function resolveField(name: string, given: unknown, columns: Map<string, string>): UserField {
  if (!IDENTIFIER.test(name))
    fail(`${JSON.stringify(name)} is not a field name (a letter, then letters, digits or _; at most 50)`);
  if (RESERVED.has(name.toLowerCase()) || RESERVED.has(columnOf(name)))
    fail(`"${name}" is a field of the user already (or a reserved name): pick another`);
  const column = columnOf(name);
  const other = columns.get(column);
  if (other !== undefined) fail(`"${name}" and "${other}" would share the column "${column}"`);
  columns.set(column, name);
  if (given === null || typeof given !== 'object') return fail(`"${name}" must be an object like { type: 'string' }`);
  const def = given as Record<string, unknown>;
  for (const key of Object.keys(def)) if (!OPTIONS.has(key)) fail(`"${name}" has an unknown option "${key}"`);
  const type = def.type;
  if (typeof type !== 'string' || !TYPES.has(type))
    fail(`"${name}".type must be one of ${[...TYPES].map((t) => `'${t}'`).join(', ')}`);
  for (const flag of ['required', 'input', 'unique'] as const)
    if (def[flag] !== undefined && typeof def[flag] !== 'boolean') fail(`"${name}".${flag} must be a boolean`);
  const fieldType = type as UserFieldType;
  const defaultValue = def.defaultValue;
  if (defaultValue !== undefined && typeof defaultValue !== 'function' && !isValueOf(fieldType, defaultValue))
    fail(`"${name}".defaultValue must be a ${fieldType} or a function returning one`);
  if (def.unique === true && fieldType !== 'string') fail(`"${name}".unique is for 'string' fields only`);
  return {
    name,
    column,
    type: fieldType,
    required: def.required === true,
    input: def.input !== false,
    unique: def.unique === true,
    defaultValue: defaultValue as UserFieldDefinition['defaultValue'],
  };
}

/**
 * The fields of `user.additionalFields`, checked: names are identifiers that clash with no field or column of
 * the user (nor with each other once in snake case), types and options are known, defaults fit their type.
 * Third-party storage adapters receive this shape in `configureUserFields`; their tests can build it here.
 * @throws AuthConfigError (`INVALID_CONFIG`) naming the field and the fix.
 * @example
 * ```ts
 * import { resolveUserFields } from '@framework/auth';
 *
 * const [plan] = resolveUserFields({ planTier: { type: 'string', defaultValue: 'free' } });
 * // { name: 'planTier', column: 'plan_tier', type: 'string', required: false, input: true, unique: false, defaultValue: 'free' }
 * ```
 */
export function resolveUserFields(config: UserFieldsConfig | undefined): readonly UserField[] {
  if (config === undefined) return [];
  if (config === null || typeof config !== 'object' || Array.isArray(config))
    fail('must be an object of fields by name');
  const columns = new Map<string, string>();
  return Object.freeze(Object.entries(config).map(([name, def]) => resolveField(name, def, columns)));
}

/** The default of `field` for a new user, or undefined when it has none. */
export function defaultOf(field: UserField): UserFieldValue<UserFieldType> | undefined {
  const given = field.defaultValue;
  if (typeof given !== 'function') return given;
  const value: unknown = given();
  if (!isValueOf(field.type, value))
    throw new TypeError(`user.additionalFields: the defaultValue function of "${field.name}" gave no ${field.type}`);
  return value as UserFieldValue<UserFieldType>;
}

/**
 * The default rows that exist when the field is added take (an SQL column default): a plain string, number or
 * boolean `defaultValue`; undefined for dates, arrays, functions and no default.
 */
export function staticDefault(field: UserField): string | number | boolean | undefined {
  const value = field.defaultValue;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : undefined;
}
