/**
 * Shapes of `createTestContext` (spec: "Testing helpers").
 * @module
 */
import type { Auth } from '@framework/auth';
import type { TriggerRuntime } from '@framework/trigger';
import type { TestApp } from './app.js';
import type { TestCookieJar } from './cookie-jar.js';
import type { TestDatabase } from './database.js';
import type { Mailbox } from '../mail/mailbox.js';
import type { RunRecorder } from '../runs/recorder.js';
import type { TotpUser } from '../two-factor/current-code.js';
import type { TotpParameters } from '../two-factor/totp-code.js';
import type { TestClock } from './clock.js';

/**
 * What `createApp` gets besides the database.
 * @example
 * ```ts
 * createApp: (db, { mail }) => createAuth({ adapter: db.adapter, providers: [], emailAndPassword: { ...mail.hooks } })
 * ```
 */
export interface TestAppTools {
  /**
   * The context's mailbox (`ctx.mail`). The context records every message of the app's auth (`auth.onMessage`)
   * on its own; `mail.hooks` serve as no-op send hooks where the auth requires one.
   */
  mail: Mailbox;
  /** The context's origin (`ctx.origin`), e.g. for the auth's `baseURL`. */
  origin: string;
  /**
   * The context's fake clock (`ctx.clock`): pass it as `createAuth({ clock })`, and start a trigger test runtime on
   * it (`createTestRuntime({ now: clock.now(), … })`), so `ctx.clock.advance()` moves both.
   */
  clock: TestClock;
}

/**
 * Options of `createTestContext`. Give `app` or `createApp`, not both; with neither, the kit's auth routes run alone.
 * @example
 * ```ts
 * const options: TestContextOptions = { createApp: (db) => buildApp(db.adapter), seed: (db) => db.adapter.createUser({ id: 'u1' }) };
 * ```
 */
export interface TestContextOptions {
  /** A finished app. It keeps its own storage; `withAuth` uses its `auth.adapter`. */
  app?: TestApp;
  /**
   * Builds the app on the context's fresh database, so the app, `seed` and `withAuth` share it; `tools.mail` is
   * the context's mailbox, for the auth's mail hooks.
   */
  createApp?: (db: TestDatabase, tools: TestAppTools) => TestApp | Promise<TestApp>;
  /** Fills the database; runs once, after the app is built and before the first request. */
  seed?: (db: TestDatabase) => unknown;
  /** Origin of relative paths given to `fetch`. Default `http://localhost`. */
  origin?: string;
  /** Passed to the app's fetch handler as its second argument (Hono's `c.env`). */
  env?: unknown;
  /** Start the app's trigger runtime with the context. Default true. */
  startRuntime?: boolean;
  /** Where `ctx.clock` starts (a `Date`, ms since the epoch or an ISO string). Default: the real time. */
  now?: Date | number | string;
}

/**
 * Options of `withAuth`.
 * @example
 * ```ts
 * ctx.withAuth({ userId: 'u1' } satisfies WithAuthOptions);
 * ```
 */
export interface WithAuthOptions {
  /** The id of a stored user (created in `seed`). */
  userId: string;
}

/**
 * An app running in-process on a fresh in-memory database.
 * @example
 * ```ts
 * const ctx: TestContext = await createTestContext({ app: { app, auth } });
 * expect((await ctx.withAuth({ userId: 'u1' }).fetch('/me')).status).toBe(200);
 * ```
 */
export interface TestContext {
  /**
   * Sends a request to the app (a path is resolved against `origin`) with
   * this context's cookies, and stores the cookies of the response.
   * Redirects are returned, not followed.
   * @throws Error after `cleanup()`.
   */
  fetch(path: string | URL, init?: RequestInit): Promise<Response>;
  /**
   * A context over the same app, with its own cookie jar holding a real
   * session for `userId` (minted on its first request).
   * @throws Error when the app has no kit auth, or after `cleanup()`.
   */
  withAuth(options: WithAuthOptions): TestContext;
  /** Stops the trigger runtime, waits for `waitUntil` work, closes the app and the database. Idempotent. */
  cleanup(): Promise<void>;
  /** The context's fresh database. */
  readonly db: TestDatabase;
  /** The app's kit auth, if it has one. */
  readonly auth: Auth | undefined;
  /** The app's trigger runtime, if it has one. */
  readonly runtime: TriggerRuntime | undefined;
  /** This context's cookies. */
  readonly cookies: TestCookieJar;
  /** The origin relative paths are resolved against. */
  readonly origin: string;
  /**
   * Every message the app's auth sent (verification, reset, magic link, email change and notice, invitation,
   * email and SMS codes), recorded through `auth.onMessage` whatever hooks the app wired, plus what the app
   * records itself with `mail.capture`. Shared by every `withAuth` view.
   */
  readonly mail: Mailbox;
  /**
   * The context's fake clock: the default app's auth runs on it, `createApp` gets it as `tools.clock`, and a trigger
   * runtime built with `createTestRuntime` moves with it (`await ctx.clock.advance('25h')` fires its cron and
   * delays on the way).
   */
  readonly clock: TestClock;
  /** The attempts of the app's trigger runtime since the context was created, if it has one. */
  readonly runs: RunRecorder | undefined;
  /**
   * The current TOTP code of a user (id, email, or `{ id }`) enrolled with the app's `twoFactor()` plugin,
   * computed with `otpauth` from the key the plugin stores, at the time of the auth's clock (`ctx.clock` when the
   * app passed it as `createAuth({ clock })`; `params.at` for another moment, in ms); `params` for other `digits` / `period` than 6 / 30 s.
   * @throws Error without the app's kit auth or its `twoFactor()` plugin, or for a user who is not enrolled.
   */
  totp(user: TotpUser, params?: TotpParameters): Promise<string>;
}
