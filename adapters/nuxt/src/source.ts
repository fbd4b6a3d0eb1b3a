/**
 * The engine, given directly or as a function resolving it once.
 * @internal
 * @module
 */
import type { Auth } from '@framework/auth';

/** The engine, or a function resolving it (for apps that open their database on the first request). */
export type AuthSource = Auth | (() => Auth | Promise<Auth>);

/** @internal The engine behind an {@link AuthSource}, resolved once and shared by every caller. */
export function authResolver(source: AuthSource): () => Promise<Auth> {
  if (typeof source !== 'function') return () => Promise.resolve(source);
  let pending: Promise<Auth> | undefined;
  return () => (pending ??= Promise.resolve(source()));
}
