/**
 * What the bench apps under `bench/apps/<framework>` share with `bench/framework-server.ts`, the process that
 * serves them. The server creates the auth instance and its signed-in user (`signedInAuth('jwt')` of
 * `bench/fixtures.ts`, the same set-up as the Hono, Express and Fastify rows) before it imports the app's
 * production build, and hands it over on `globalThis`; `BENCH_MODE` says which route the app serves:
 * - `noop`: the framework's own no-op middleware and a route that answers `ok`;
 * - `protected`: the kit's adapter and a route that requires the signed-in user and answers their id.
 */
import type { Auth } from '@framework/auth';

declare global {
  var __frameworkBenchAuth: Auth | undefined;
}

/** The route an app serves in this process. */
export type BenchMode = 'noop' | 'protected';

/** `BENCH_MODE` of this process (`noop` unless it says `protected`). */
export function benchMode(): BenchMode {
  return process.env.BENCH_MODE === 'protected' ? 'protected' : 'noop';
}

/**
 * The auth instance `bench/framework-server.ts` created.
 * @throws Error when the app runs outside that server (nothing set it).
 */
export function benchAuth(): Auth {
  const auth = globalThis.__frameworkBenchAuth;
  if (!auth) throw new Error('bench app: no auth instance; start it through bench/framework-server.ts');
  return auth;
}

/** Hands `auth` to the app that is imported next. */
export function provideBenchAuth(auth: Auth): void {
  globalThis.__frameworkBenchAuth = auth;
}
