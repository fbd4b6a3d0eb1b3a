/**
 * `isThenable`: tells a promise-like value (a native promise, or a driver's or an app's own thenable) from a plain
 * value, for the paths that stay synchronous when nothing needs waiting for.
 * @internal
 * @module
 */

/** Whether `value` has a callable `then` (Promises/A+ "thenable"). */
export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';
