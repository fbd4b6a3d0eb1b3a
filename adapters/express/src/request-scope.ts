/**
 * The request scope `authSession` opened, kept per Express request for the guards (`authorize`), so they read the
 * same user, granted roles and role definitions in both of its modes (with or without `AsyncLocalStorage`).
 * @internal
 * @module
 */
import type { Request } from 'express';
import type { AuthScope } from '@framework/auth';

const scopes = new WeakMap<Request, AuthScope>();

/** Keeps `scope` as `req`'s; a WeakMap, so it goes with the request. */
export function keepScope(req: Request, scope: AuthScope): void {
  scopes.set(req, scope);
}

/** The scope `authSession` kept for `req`, or undefined when it did not run. */
export function scopeOf(req: Request): AuthScope | undefined {
  return scopes.get(req);
}
