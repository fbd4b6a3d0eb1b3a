/**
 * `createAuth`'s step for `user.additionalFields`: checks the fields, hands them to the storage adapter, and
 * keeps them by the engine's resolved config, where the routes read them.
 * @module
 * @internal
 */
import { AuthConfigError } from '../errors.js';
import type { StorageAdapter } from '../storage/types.js';
import { resolveUserFields, type UserField } from './definitions.js';
import type { UserOptions } from './types.js';

/**
 * The fields by engine config (frozen, so kept beside it), one map per process under a registered symbol: a
 * second copy of this module (a CLI loading the app's config through jiti) reads what the app's copy bound.
 */
const registry = globalThis as { [key: symbol]: WeakMap<object, readonly UserField[]> | undefined };
const byConfig = (registry[Symbol.for('@framework/auth:user-fields')] ??= new WeakMap());

/**
 * Resolves `user.additionalFields`, configures `adapter` with them (before it is wrapped or used) and records
 * them for the engine whose resolved config is `config`. Nothing happens without fields.
 * @throws AuthConfigError (`INVALID_CONFIG`) for malformed fields, fields without an adapter, or an adapter that
 *   cannot store them (no `configureUserFields`).
 */
export function bindUserFields(
  config: object,
  adapter: StorageAdapter | undefined,
  user: UserOptions | undefined,
): void {
  if (user !== undefined && (user === null || typeof user !== 'object' || Array.isArray(user)))
    throw new AuthConfigError('Invalid auth config: user must be an object like { additionalFields: { … } }');
  for (const key of Object.keys(user ?? {}))
    if (key !== 'additionalFields') throw new AuthConfigError(`Invalid auth config: unknown option user.${key}`);
  const fields = resolveUserFields(user?.additionalFields);
  if (fields.length === 0) return;
  if (!adapter)
    throw new AuthConfigError('Invalid auth config: user.additionalFields needs `adapter` (the fields are stored)');
  if (typeof adapter.configureUserFields !== 'function')
    throw new AuthConfigError(
      'Invalid auth config: user.additionalFields needs an adapter that stores custom fields (configureUserFields); every adapter of @framework/auth does',
    );
  adapter.configureUserFields(fields);
  byConfig.set(config, fields);
}

/** The custom user fields of the engine whose resolved config is `config` (`[]` when none). */
export function userFieldsOf(config: object): readonly UserField[] {
  return byConfig.get(config) ?? [];
}

/**
 * The custom user fields an auth was created with (`createAuth({ user: { additionalFields } })`, resolved: name,
 * column, type, flags and default), `[]` when none. For tools that print the schema of an app's auth, such as
 * `framework auth generate --config`.
 * @example
 * ```ts
 * import { createAuth, createSqliteAdapter, userFieldsOfAuth } from '@framework/auth';
 *
 * const auth = createAuth({
 *   adapter: createSqliteAdapter({ filename: ':memory:' }),
 *   providers: [],
 *   user: { additionalFields: { plan: { type: 'string' } } },
 * });
 * userFieldsOfAuth(auth).map((field) => field.column); // ['plan']
 * ```
 */
export function userFieldsOfAuth(auth: { readonly config: object }): readonly UserField[] {
  return userFieldsOf(auth.config);
}
