/**
 * `setUserFields`: server code sets custom fields (those with `input: false` included), typed by the engine.
 * @module
 */
import { authError } from '../errors/auth-error.js';
import type { StorageAdapter } from '../storage/types.js';
import type { User } from '../types.js';
import { userFieldsOf } from './bind.js';
import { USER_FIELD_ERRORS } from './errors.js';
import { answeringFieldConflicts } from './storage-conflicts.js';

/** What `setUserFields` reads of the engine from `createAuth`: its storage, its config, its user type. */
export interface EngineWithFields<U extends User> {
  readonly adapter: StorageAdapter | undefined;
  readonly config: object;
  getSession(request: Request): Promise<{ user: U | null }>;
}

/** The custom fields of an engine's user (what the user has beyond {@link User}), each optional. */
export type UserFieldPatch<U> = Partial<Omit<U, keyof User>>;

/**
 * Sets custom fields of a stored user from server code (a billing webhook setting `plan`, say), `input: false`
 * fields included; `null` clears one. The values are typed from the engine's `additionalFields`, and checked at run
 * time too.
 * @returns the updated user, or null when no user has this id.
 * @throws AuthError `USER_FIELD_UNKNOWN` (400) for a key that is no custom field; `USER_FIELD_TAKEN` (409) for a
 *   taken unique value; `NOT_SUPPORTED` (400) without an adapter; TypeError for a value of the wrong type.
 * @example
 * ```ts
 * import { createAuth, createMemoryAdapter, setUserFields } from '@framework/auth';
 *
 * const auth = createAuth({ adapter: createMemoryAdapter(), providers: [], user: { additionalFields: { plan: { type: 'string', defaultValue: 'free', input: false } } } });
 * const user = await setUserFields(auth, 'user-id', { plan: 'pro' }); // user?.plan: string
 * ```
 */
export async function setUserFields<U extends User>(
  auth: EngineWithFields<U>,
  userId: string,
  values: UserFieldPatch<U>,
): Promise<U | null> {
  const adapter = auth.adapter;
  if (!adapter) throw authError('NOT_SUPPORTED', 'Custom user fields need a storage adapter');
  const fields = userFieldsOf(auth.config);
  const names = new Set(fields.map((f) => f.name));
  for (const key of Object.keys(values))
    if (!names.has(key)) throw USER_FIELD_ERRORS.error('USER_FIELD_UNKNOWN', `"${key}" is not a custom user field`);
  const updated = await answeringFieldConflicts(fields, () => adapter.updateUser(userId, values as object));
  return updated as U | null;
}
