/**
 * `@framework/auth/plugins/username`: sign in with a username and password; usernames unique after folding.
 * @module
 */
export { username, USERNAME_API, type UsernameExtension, type UsernameUpdated } from './plugin.js';
export type { UsernameOptions } from './options.js';
export { USERNAME_ERRORS, type UsernameErrorCode } from './errors.js';
export {
  DEFAULT_USERNAME_PATTERN,
  foldUsername,
  hasInvisible,
  mixesScripts,
  parseUsername,
  type ParsedUsername,
  type UsernameRules,
} from './normalize.js';
export type { UsernameRecord, UsernameReservation, UsernameStorage } from './storage/types.js';
export { createMemoryUsernameStorage } from './storage/memory.js';
export { createSqlUsernameStorage, type SqlUsernameStorageOptions } from './storage/sql.js';
