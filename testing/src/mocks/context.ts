/**
 * `createMockContext`: the third argument of a middleware under test.
 * @module
 */
import { vi, type Mock } from 'vitest';
import type { User } from '@framework/auth';
import { createMockEnv } from '../env/create-mock-env.js';

/** The `auth` part of a mock context: `getUser` is a spy. */
export interface MockAuth {
  getUser: Mock<() => Promise<User | null>>;
}

/** A context for `(request, next, context)` middleware, e.g. `authMiddleware(options)`. */
export interface MockContext<Env = Record<string, any>> {
  env: Env;
  auth: MockAuth;
}

/** Options of {@link createMockContext}. */
export interface MockContextInit<Env> {
  /** Bindings. Default: a fresh {@link createMockEnv}. */
  env?: Env;
  /** `getUser` (async, a user or null), or the user itself. Default: nobody signed in. */
  auth?: { getUser?: () => Promise<User | null> | User | null; user?: User | null };
}

/**
 * A middleware context whose `auth.getUser()` resolves to the given user
 * (or null). Usable as the context of `authMiddleware(options)(request, next, context)`.
 *
 * @example
 * ```ts
 * const context = createMockContext({ auth: { user: { id: 'u1', role: 'admin' } } });
 * const response = await authMiddleware({ role: 'admin', rbac })(request, next, context);
 * expect(context.auth.getUser).toHaveBeenCalled();
 * ```
 */
export function createMockContext<Env = Record<string, any>>(init: MockContextInit<Env> = {}): MockContext<Env> {
  const given = init.auth;
  const getUser = vi.fn(async (): Promise<User | null> => {
    if (given?.getUser) return (await given.getUser()) ?? null;
    return given?.user ?? null;
  });
  return { env: init.env ?? (createMockEnv() as Env), auth: { getUser } };
}
