/**
 * Type-level wiring of custom user fields into `createAuth`: the `user` and `callbacks` options typed by the
 * fields, and the user type `getSession`, `openScope` and `run` answer with.
 * @module
 */
import type { AuthCallbacks, SessionParams } from '../callbacks.js';
import type { SessionState } from '../contract/types.js';
import type { AuthScope } from '../scope.js';
import type { Session, User } from '../types.js';
import type { InferUserFields } from './types.js';

type MaybePromise<T> = T | Promise<T>;

/**
 * The user with the custom fields of `F`: exactly {@link User} when `F` names none (no fields, or the wide
 * `UserFieldsConfig` of options not written as a literal).
 */
export type UserWithFields<F> = [keyof F] extends [never]
  ? User
  : string extends keyof F
    ? User
    : User & InferUserFields<F>;

/** What `callbacks.session` receives: the session and the stored user, both with the custom fields. */
export interface TypedSessionParams<U extends User> extends SessionParams {
  session: Session & { user: U };
  user: U;
}

/**
 * `createAuth`'s callbacks, with `session` typed by the custom fields of `F`; its return type `S` becomes the
 * session type of the engine.
 */
export type TypedCallbacks<F, S extends Session> = Omit<AuthCallbacks, 'session'> & {
  /**
   * Shapes what `getSession` and `GET /session` return. The user carries the custom fields; fields the returned
   * user adds are typed on `getSession()`, the request scope and the client's `useSession<typeof auth>()`.
   */
  session?(params: TypedSessionParams<UserWithFields<F>>): MaybePromise<S>;
};

/**
 * The user type of an engine: the user `callbacks.session` returns when it has one (`S`), else the user with
 * the custom fields of `F`.
 * @example
 * ```ts
 * import type { Session, SessionUserOf } from '@framework/auth';
 *
 * type Me = SessionUserOf<{ plan: { type: 'string'; defaultValue: 'free' } }, Session>; // User & { plan: string }
 * ```
 */
export type SessionUserOf<F, S> = Session extends S
  ? UserWithFields<F>
  : S extends { user: infer U extends User }
    ? U
    : UserWithFields<F>;

/**
 * {@link SessionState} with the user typed as `U` (plain {@link User} for an engine without custom fields). Not a
 * conditional type: `Auth<Ext, U>` must stay covariant in `U`, so a typed engine still passes where `Auth` is asked.
 */
export type SessionStateOf<U extends User> = Omit<SessionState, 'session' | 'user'> & {
  session: (Session & { user: U }) | null;
  user: U | null;
};

/** {@link AuthScope} with the user typed as `U` (plain {@link User} for an engine without custom fields). */
export type AuthScopeOf<U extends User> = Omit<AuthScope, 'session' | 'user'> & {
  session: (Session & { user: U }) | null;
  user: U | null;
};
