/**
 * Sign-up (`POST {basePath}/signup`) with custom user fields: the body's field values are parsed before anything
 * is stored, and the new user is created with them in the same insert.
 * @module
 * @internal
 */
import { passwordAccounts, type PasswordAccounts } from '../password-accounts.js';
import { delegateAdapter } from '../storage/delegate.js';
import type { StorageAdapter } from '../storage/types.js';
import type { UserField } from './definitions.js';
import { fieldInput } from './input.js';
import { answeringFieldConflicts } from './storage-conflicts.js';

/** What sign-up needs for custom fields. */
export interface SignUpFields {
  /** The parsed values, to show the `signIn` callback on the user before it is stored. */
  values: Record<string, unknown>;
  /** `register` creating the user with `values` (or the given one when there are no fields). */
  register: PasswordAccounts['register'];
}

/**
 * Parses the custom fields of a sign-up body and returns a `register` that stores them with the user. A taken
 * unique value answers 409 `USER_FIELD_TAKEN`.
 * @throws AuthError `USER_FIELD_NOT_INPUT`, `USER_FIELD_REQUIRED` or `USER_FIELD_INVALID` (400).
 */
export function signUpFields(
  body: Readonly<Record<string, string>>,
  fields: readonly UserField[],
  adapter: StorageAdapter,
  passwords: PasswordAccounts,
  minPasswordLength: number,
): SignUpFields {
  if (fields.length === 0) return { values: {}, register: passwords.register };
  const values = fieldInput(body, fields, 'create');
  const withValues = delegateAdapter(adapter, {
    createUser: (user) => answeringFieldConflicts(fields, () => adapter.createUser({ ...user, ...values })),
  });
  return { values, register: passwordAccounts(withValues, { minLength: minPasswordLength }).register };
}
