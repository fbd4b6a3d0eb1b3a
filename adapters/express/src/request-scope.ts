/**
 * What `authSession` puts on `req.auth`, and the request scope it opened, kept there for the guards (`authorize`),
 * so they read the same user, granted roles and role definitions in both of its modes (with or without
 * `AsyncLocalStorage`).
 * @internal
 * @module
 */
import type { Request } from 'express';
import type { AuthScope, Session, User } from '@framework/auth';

/** What {@link authSession} puts on `req.auth`. */
export interface ExpressAuthState {
  user: User | null;
  session: Session | null;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The session of the request, set by `authSession` from `@framework/express`. */
      auth?: ExpressAuthState;
    }
  }
}

/**
 * `req.auth` as `authSession` sets it: `user` and `session` (own, enumerable), and the scope in a private field.
 * One object holds both because every property added to an Express request is costly: Express gives each request
 * object a map (hidden class) of its own, so each added property builds a new one (about 2 µs a request on Node 20).
 */
class RequestAuth implements ExpressAuthState {
  user: User | null;
  session: Session | null;
  readonly #scope: AuthScope;

  constructor(scope: AuthScope) {
    this.user = scope.user;
    this.session = scope.session;
    this.#scope = scope;
  }

  static scopeOf(value: unknown): AuthScope | undefined {
    return value instanceof RequestAuth ? value.#scope : undefined;
  }
}

/** Sets `req.auth` to `scope`'s user and session, keeping `scope` with them for {@link scopeOf}. */
export function keepScope(req: Request, scope: AuthScope): void {
  req.auth = new RequestAuth(scope);
}

/** The scope `authSession` kept for `req`, or undefined when it did not run (or `req.auth` was replaced). */
export function scopeOf(req: Request): AuthScope | undefined {
  return RequestAuth.scopeOf(req.auth);
}
