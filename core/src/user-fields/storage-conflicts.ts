/**
 * A taken unique custom field, as the routes answer it.
 * @module
 * @internal
 */
import { StorageConflictError } from '../storage/types.js';
import type { UserField } from './definitions.js';
import { USER_FIELD_ERRORS } from './errors.js';

/**
 * Runs `write`; a {@link StorageConflictError} on one of `fields` becomes 409 `USER_FIELD_TAKEN`, other errors
 * pass through.
 */
export async function answeringFieldConflicts<T>(fields: readonly UserField[], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof StorageConflictError && fields.some((f) => f.name === error.field))
      throw USER_FIELD_ERRORS.error('USER_FIELD_TAKEN', `This ${error.field} is taken`);
    throw error;
  }
}
