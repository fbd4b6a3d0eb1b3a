/**
 * Actions bound to one client's options (`createAuthClient(...).actions(module)`), their results typed with the
 * server's error codes.
 * @module
 */
import type { AccountResult } from './account.js';
import type { AuthClientOptions } from './types.js';

/**
 * The functions of `M` that resolve to an {@link AccountResult} (the account helpers, the plugin client modules'
 * functions), each with the same parameters and its result's `error` typed as `E`.
 *
 * @example
 * ```ts
 * import * as twoFactor from '@framework/auth-client/plugins/two-factor';
 * type TwoFactor = BoundActions<typeof twoFactor, 'TWO_FACTOR_LOCKED' | 'FETCH_ERROR'>;
 * ```
 */
export type BoundActions<M, E extends string = string> = {
  [K in keyof M as M[K] extends (...args: never[]) => Promise<AccountResult<unknown>> ? K : never]: M[K] extends (
    ...args: infer A
  ) => Promise<AccountResult<infer T>>
    ? (...args: A) => Promise<AccountResult<T, E>>
    : never;
};

/**
 * `action` with `options` filled in: the action's last declared parameter (`fn.length - 1`) gets `options`, merged
 * under the options the call gives there (the call's win). Actions declare `options?: AuthClientOptions` last and no
 * default values before it, so `fn.length` counts every parameter (and is at least 1).
 */
export function bindAction<F extends (...args: never[]) => unknown>(action: F, options: AuthClientOptions): F {
  const at = action.length - 1;
  const bound = (...args: unknown[]) => {
    const given = args[at] as AuthClientOptions | undefined;
    args.length = at; // the arguments before `options`, missing ones undefined
    return (action as unknown as (...a: unknown[]) => unknown)(...args, { ...options, ...given });
  };
  return bound as unknown as F;
}

/**
 * Every function of `actions` (an object or a module namespace, `import * as twoFactor from ...`) bound to
 * `options` with {@link bindAction}; anything else is left out.
 */
export function bindActions<M extends object, E extends string = string>(
  actions: M,
  options: AuthClientOptions,
): BoundActions<M, E> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(actions))
    if (typeof value === 'function') out[name] = bindAction(value as (...args: never[]) => unknown, options);
  return out as BoundActions<M, E>;
}
