/**
 * `createMockLoaderArgs`: the argument of a Remix / React Router loader or action.
 * @module
 */
import { createMockRequest } from './request.js';

/** A loader's argument: `{request, params, context}`. */
export interface MockLoaderArgs<Context = Record<string, unknown>> {
  request: Request;
  params: Record<string, string | undefined>;
  context: Context;
}

/** Options of {@link createMockLoaderArgs}. */
export interface MockLoaderArgsInit<Context> {
  /** Route parameters. Default `{}`. */
  params?: Record<string, string | undefined>;
  /** A Request, or a path for {@link createMockRequest}. Default `GET /`. */
  request?: Request | string;
  /** The load context, e.g. `{ env, db }`. Default `{}`. */
  context?: Context;
}

/**
 * Loader (or action) arguments as Remix and React Router pass them.
 *
 * @example
 * ```ts
 * const args = createMockLoaderArgs({ params: { id: '7' }, request: '/posts/7', context: { env: createMockEnv(), db } });
 * const response = await loader(args);
 * ```
 */
export function createMockLoaderArgs<Context = Record<string, unknown>>(
  init: MockLoaderArgsInit<Context> = {},
): MockLoaderArgs<Context> {
  const request =
    typeof init.request === 'string' ? createMockRequest(init.request) : (init.request ?? createMockRequest('/'));
  return { request, params: { ...init.params }, context: (init.context ?? {}) as Context };
}
