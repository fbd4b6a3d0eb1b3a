/**
 * Checks the sign-up fields plugins declare (`AuthPlugin.signUpFields`) at `createAuth`.
 * @module
 * @internal
 */
import type { SignUpField, SignUpFieldInputType } from '../contract/types.js';
import { AuthConfigError } from '../errors.js';
import { isReservedFieldName, type UserField } from './definitions.js';

const IDENTIFIER = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;
const TYPES: ReadonlySet<string> = new Set<SignUpFieldInputType>(['text', 'email', 'tel', 'url', 'number']);
/** What sign-up reads from the body itself. */
const SIGN_UP_KEYS: ReadonlySet<string> = new Set(['email', 'password', 'name', 'csrftoken', 'callbackurl']);

/**
 * The sign-up fields of `plugins`, checked against each other and the custom user fields.
 * @throws AuthConfigError (`INVALID_CONFIG`) for a malformed field, a name sign-up or a user field already uses, or
 *   one declared twice.
 */
export function resolvePluginSignUpFields(
  plugins: readonly { readonly id: string; readonly signUpFields?: readonly SignUpField<any>[] }[],
  userFields: readonly UserField[],
): readonly SignUpField[] {
  const taken = new Set(userFields.map((f) => f.name.toLowerCase()));
  const out: SignUpField[] = [];
  for (const plugin of plugins)
    for (const field of plugin.signUpFields ?? []) {
      const fail = (why: string) =>
        new AuthConfigError(`Invalid auth config: plugin ${plugin.id}: sign-up field "${String(field?.name)}" ${why}`);
      if (!field || typeof field.name !== 'string' || !IDENTIFIER.test(field.name))
        throw fail('needs a name: a letter, then letters, digits or _ (at most 50)');
      const key = field.name.toLowerCase();
      if (SIGN_UP_KEYS.has(key) || isReservedFieldName(key)) throw fail('uses a name sign-up reads itself');
      if (taken.has(key)) throw fail('is declared twice (by a plugin or user.additionalFields)');
      if (typeof field.label !== 'string' || field.label.trim() === '') throw fail('needs a label');
      if (field.type !== undefined && !TYPES.has(field.type)) throw fail(`has an unknown type "${String(field.type)}"`);
      if (typeof field.check !== 'function') throw fail('needs a check function');
      if (field.persist !== undefined && typeof field.persist !== 'function') throw fail('persist must be a function');
      taken.add(key);
      out.push(field);
    }
  return out;
}
