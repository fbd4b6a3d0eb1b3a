/**
 * The shapes of custom user fields (`createAuth({ user: { additionalFields } })`) and the types inferred from them.
 * @module
 */

/** The value types a custom user field may hold. `string[]` is stored as JSON text. */
export type UserFieldType = 'string' | 'number' | 'boolean' | 'date' | 'string[]';

/** The TypeScript type of a field's value, from its {@link UserFieldType}. */
export type UserFieldValue<T extends UserFieldType> = T extends 'string'
  ? string
  : T extends 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'date'
        ? Date
        : T extends 'string[]'
          ? string[]
          : never;

/** Options every field type shares. */
interface UserFieldBase<T extends UserFieldType> {
  type: T;
  /**
   * Whether the sign-up form must carry the field (400 `USER_FIELD_REQUIRED` without it, unless `defaultValue`
   * is set) and whether `POST {basePath}/account/update` may clear it. Users created another way (OAuth, magic
   * link, passkeys, `admin()`) get `defaultValue`, so give one when those are on. Default false.
   */
  required?: boolean;
  /**
   * The value of a new user that did not give one: a value, or a function called for each new user. A plain
   * string, number or boolean is also the column's SQL default, so rows that exist when the column is added
   * read it. Default none (null).
   */
  defaultValue?: UserFieldValue<T> | (() => UserFieldValue<T>);
  /**
   * Whether the client may set the field (sign-up, `POST {basePath}/account/update`). With `false` a request
   * that carries it is refused with 400 `USER_FIELD_NOT_INPUT`; only server code (`adapter.updateUser`) sets it.
   * Default true.
   */
  input?: boolean;
  /**
   * A unique index on the column: a second user with the same value is refused (409 `USER_FIELD_TAKEN` on the
   * routes, `StorageConflictError` with `field` = the field's name from the adapter). Nulls never collide.
   * `string` fields only (MySQL indexes them as `varchar(255)`, so values are at most 255 characters there).
   * Default false.
   */
  unique?: boolean;
}

/**
 * One custom user field: its type and options. Stored in a column of the users table named after the field in
 * snake case (`planTier` → `plan_tier`).
 * @example
 * ```ts
 * const plan: UserFieldDefinition = { type: 'string', required: false, defaultValue: 'free', input: false };
 * ```
 */
export type UserFieldDefinition =
  | UserFieldBase<'string'>
  | UserFieldBase<'number'>
  | UserFieldBase<'boolean'>
  | UserFieldBase<'date'>
  | UserFieldBase<'string[]'>;

/**
 * The custom fields, by name. A name is an identifier (a letter, then letters, digits or `_`, at most 50
 * characters) that is not one of the user's own fields or columns (`id`, `email`, `name`, `image`,
 * `emailVerified`, `role`, `roles`, `sessionVersion`, …): `createAuth` throws `INVALID_CONFIG` otherwise.
 */
export type UserFieldsConfig = Record<string, UserFieldDefinition>;

/** The `user` option of `createAuth`. */
export interface UserOptions<F extends UserFieldsConfig = UserFieldsConfig> {
  /**
   * Custom fields of every user, stored as real columns by every adapter of this package (`auth.migrate()` adds
   * the missing ones), validated on sign-up and `POST {basePath}/account/update`, and returned on the session.
   * See core/README.md "Custom user fields".
   * @example
   * ```ts
   * createAuth({ adapter, providers: [], user: { additionalFields: { plan: { type: 'string', defaultValue: 'free', input: false } } } });
   * ```
   */
  additionalFields?: F;
}

/** Whether a field always has a value on stored users: `required`, or a `defaultValue`. */
type AlwaysSet<D> = D extends { required: true } ? true : D extends { defaultValue: unknown } ? true : false;

/**
 * The values of the fields of `F` as the user carries them: `T` when the field is `required` or has a
 * `defaultValue`, else `T | null`.
 * @example
 * ```ts
 * type Extra = InferUserFields<{ plan: { type: 'string'; defaultValue: 'free' }; seats: { type: 'number' } }>;
 * // { plan: string; seats: number | null }
 * ```
 */
export type InferUserFields<F> = {
  -readonly [K in keyof F]: F[K] extends { type: infer T extends UserFieldType }
    ? AlwaysSet<F[K]> extends true
      ? UserFieldValue<T>
      : UserFieldValue<T> | null
    : never;
};
