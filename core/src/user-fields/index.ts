/**
 * Custom user fields (`createAuth({ user: { additionalFields } })`): the public types, the resolved field shape
 * storage adapters receive (`StorageAdapter.configureUserFields`), and the resolver third-party adapters and the
 * conformance suite use.
 * @module
 */
export type {
  InferUserFields,
  UserFieldDefinition,
  UserFieldType,
  UserFieldValue,
  UserFieldsConfig,
  UserOptions,
} from './types.js';
export { resolveUserFields, type UserField } from './definitions.js';
export type {
  AuthScopeOf,
  SessionStateOf,
  SessionUserOf,
  TypedCallbacks,
  TypedSessionParams,
  UserWithFields,
} from './infer.js';
export { USER_FIELD_ERRORS } from './errors.js';
export { userFieldsOfAuth } from './bind.js';
export { setUserFields, type EngineWithFields, type UserFieldPatch } from './set-fields.js';
