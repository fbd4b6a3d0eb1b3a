/**
 * Sign-up (`POST {basePath}/signup`) with custom user fields and the plugins' sign-up fields: the body's values are
 * parsed and checked before anything is stored, the new user is created with the custom field values in the same
 * insert, and each plugin stores its field's value once the user exists.
 * @module
 * @internal
 */
import type { RouteContext, SignUpField } from '../contract/types.js';
import { passwordAccounts, type PasswordAccounts, type RegisterInput } from '../password-accounts.js';
import { delegateAdapter } from '../storage/delegate.js';
import type { AdapterUser, StorageAdapter } from '../storage/types.js';
import type { UserField } from './definitions.js';
import { fieldInput } from './input.js';
import { answeringFieldConflicts } from './storage-conflicts.js';

/** What sign-up needs for custom fields. */
export interface SignUpFields {
  /** The parsed custom field values, to show the `signIn` callback on the user before it is stored. */
  values: Record<string, unknown>;
  /**
   * Creates the user with `values` (through `passwords.register`), then runs the plugin fields' `persist`;
   * `signsIn` tells them whether this sign-up signs in at once.
   */
  register(input: RegisterInput, signsIn: boolean): Promise<AdapterUser>;
}

/** What {@link signUpFields} reads. */
export interface SignUpFieldsInput {
  ctx: RouteContext;
  /** The sign-up's parsed email address. */
  email: string;
  fields: readonly UserField[];
  pluginFields: readonly SignUpField[];
  adapter: StorageAdapter;
  passwords: PasswordAccounts;
  minPasswordLength: number;
}

/** The body's value of a plugin field: a string with more than spaces, else undefined. */
function rawOf(body: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const raw = Object.hasOwn(body, name) ? body[name] : undefined;
  return typeof raw === 'string' && raw.trim() !== '' ? raw : undefined;
}

/**
 * Parses the custom fields of a sign-up body, runs each plugin field's `check` (in order), and returns a `register`
 * that stores the custom values with the user and then hands the checked values to the plugins' `persist`. A taken
 * unique custom value answers 409 `USER_FIELD_TAKEN`.
 * @throws AuthError `USER_FIELD_NOT_INPUT`, `USER_FIELD_REQUIRED` or `USER_FIELD_INVALID` (400), or what a plugin
 *   field's `check` throws.
 */
export async function signUpFields(input: SignUpFieldsInput): Promise<SignUpFields> {
  const { ctx, fields, adapter, passwords } = input;
  const values = fields.length === 0 ? {} : fieldInput(ctx.body, fields, 'create');
  const checked: { field: SignUpField; value: unknown }[] = [];
  for (const field of input.pluginFields)
    checked.push({ field, value: await field.check(ctx, { value: rawOf(ctx.body, field.name), email: input.email }) });
  const withValues =
    fields.length === 0
      ? passwords
      : passwordAccounts(
          delegateAdapter(adapter, {
            createUser: (user) => answeringFieldConflicts(fields, () => adapter.createUser({ ...user, ...values })),
          }),
          { minLength: input.minPasswordLength },
        );
  return {
    values,
    async register(user, signsIn) {
      const created = await withValues.register(user);
      for (const { field, value } of checked)
        if (value !== undefined && value !== null && field.persist)
          await field.persist(ctx, { value, user: created, signsIn });
      return created;
    },
  };
}
