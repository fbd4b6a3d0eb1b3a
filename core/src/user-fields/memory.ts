/**
 * The memory adapter's unique custom fields: a linear check, as the adapter is for tests and small apps.
 * @module
 * @internal
 */
import { StorageConflictError, type AdapterUser } from '../storage/types.js';
import type { UserField } from './definitions.js';

/**
 * Throws when another user holds the value of one of `user`'s unique fields (nulls never collide).
 * @throws StorageConflictError with `field` = the field's name.
 */
export function checkUniqueFields(
  stored: Iterable<AdapterUser>,
  user: AdapterUser,
  fields: readonly UserField[],
): void {
  const unique = fields.filter((f) => f.unique);
  if (unique.length === 0) return;
  const values = user as unknown as Record<string, unknown>;
  for (const other of stored) {
    if (other.id === user.id) continue;
    const theirs = other as unknown as Record<string, unknown>;
    for (const field of unique)
      if (values[field.name] != null && theirs[field.name] === values[field.name])
        throw new StorageConflictError(`The ${field.name} is taken`, field.name);
  }
}
