/**
 * `createTestContext`: an app in-process on a fresh in-memory SQLite, with a
 * cookie-keeping `fetch` and `withAuth` for real sessions.
 * @module
 */
import { createAuth } from '@framework/auth';
import { resolveApp, type ResolvedApp, type TestApp, type TestExecutionContext } from './app.js';
import { createCookieJar, type TestCookieJar } from './cookie-jar.js';
import { openTestDatabase, type OwnedTestDatabase, type TestDatabase } from './database.js';
import { mintSession } from './mint-session.js';
import { rememberResponse } from './responses.js';
import { createMailbox, recordMessages } from '../mail/mailbox.js';
import { createTestClock, type ClockedRuntime } from './clock.js';
import { recordRuns, type RunRecorder } from '../runs/recorder.js';
import { currentTotp } from '../two-factor/current-code.js';
import type { TestAppTools, TestContext, TestContextOptions } from './types.js';

/**
 * The kit's auth routes alone, on the context's database: no providers, and email-and-password accounts whose
 * mails go to the context's mailbox, with links on the context's origin.
 */
function defaultApp(db: TestDatabase, tools: TestAppTools): TestApp {
  return createAuth({
    session: { strategy: 'database' },
    baseURL: tools.origin,
    adapter: db.adapter,
    providers: [],
    emailAndPassword: { ...tools.mail.hooks },
    env: {},
    logger: { error: () => {}, warn: () => {} },
    clock: tools.clock,
  });
}

/** A trigger runtime from `createTestRuntime` (a fake clock moved by `advanceTime`), which `ctx.clock` drives. */
function clockedRuntime(runtime: unknown): ClockedRuntime | undefined {
  const r = runtime as Partial<ClockedRuntime> | undefined;
  return r && typeof r.advanceTime === 'function' && typeof r.now === 'function' ? (r as ClockedRuntime) : undefined;
}

async function buildApp(options: TestContextOptions, db: TestDatabase, tools: TestAppTools): Promise<ResolvedApp> {
  if (options.app !== undefined && options.createApp !== undefined)
    throw new TypeError('createTestContext: give `app` or `createApp`, not both');
  if (options.createApp !== undefined) return resolveApp(await options.createApp(db, tools));
  return resolveApp(options.app ?? defaultApp(db, tools));
}

async function closeAll(
  resolved: ResolvedApp | undefined,
  started: boolean,
  pending: Promise<unknown>[],
  db: OwnedTestDatabase,
  runs?: RunRecorder,
): Promise<void> {
  try {
    if (started) await resolved?.runtime?.stop({ timeout: '5s' });
    runs?.stop();
    await Promise.allSettled(pending);
    await resolved?.close?.();
  } finally {
    await db.close();
  }
}

/**
 * Starts an app in-process on a fresh in-memory SQLite database with the
 * kit's migrations applied, runs `seed(db)`, and returns a context whose
 * `fetch` keeps cookies. The app may be a fetch handler, a Hono app, the
 * kit's `createAuth` or `createTriggerRuntime` object, or a bundle
 * `{app, auth, runtime, close}`; `createApp(db)` builds it on the fresh
 * database. A trigger runtime is started, and stopped by `cleanup()`.
 *
 * @throws TypeError for an app of an unknown shape; whatever `createApp` or `seed` throws (after closing what
 * was opened).
 * @example
 * ```ts
 * const ctx = await createTestContext({
 *   createApp: (db) => buildApp(db.adapter),          // returns { app, auth }
 *   seed: async (db) => { await db.adapter.createUser({ id: 'u1', email: 'ada@example.com' }); },
 * });
 * const res = await ctx.withAuth({ userId: 'u1' }).fetch('/dashboard');
 * await ctx.cleanup();
 * ```
 */
export async function createTestContext(options: TestContextOptions = {}): Promise<TestContext> {
  const origin = new URL(options.origin ?? 'http://localhost').origin;
  const db = await openTestDatabase();
  const clock = createTestClock(options.now);
  const mail = createMailbox({ now: clock.now });
  const pending: Promise<unknown>[] = [];
  let resolved: ResolvedApp | undefined;
  let runs: RunRecorder | undefined;
  let started = false;
  let stopRecording: (() => void) | undefined;
  try {
    resolved = await buildApp(options, db, { mail, origin, clock });
    if (resolved.auth) stopRecording = recordMessages(mail, resolved.auth);
    const driven = clockedRuntime(resolved.runtime);
    if (driven) clock.drive(driven);
    if (resolved.runtime) runs = recordRuns(resolved.runtime);
    await options.seed?.(db);
    if (resolved.runtime && options.startRuntime !== false) {
      await resolved.runtime.start();
      started = true;
    }
  } catch (error) {
    await closeAll(resolved, started, pending, db, runs).catch(() => {});
    throw error;
  }
  const app = resolved;
  const executionContext: TestExecutionContext = {
    waitUntil: (promise) => void pending.push(promise),
    passThroughOnException: () => {},
    props: {},
  };
  let cleaned: Promise<void> | undefined;

  const assertOpen = (what: string) => {
    if (cleaned)
      throw new Error(`TestContext.${what} was called after cleanup(); create a new context with createTestContext()`);
  };

  async function send(jar: TestCookieJar, path: string | URL, init: RequestInit | undefined): Promise<Response> {
    const url = new URL(path, origin);
    const headers = new Headers(init?.headers);
    const cookie = jar.header(url.pathname);
    if (cookie) headers.set('cookie', [headers.get('cookie'), cookie].filter(Boolean).join('; '));
    const response = await app.handle(new Request(url, { ...init, headers }), options.env, executionContext);
    jar.store(response.headers.getSetCookie());
    rememberResponse(response, { auth: app.auth, origin });
    return response;
  }

  function view(jar: TestCookieJar, before?: () => Promise<void>): TestContext {
    return {
      db,
      auth: app.auth,
      runtime: app.runtime,
      cookies: jar,
      origin,
      mail,
      clock,
      runs,
      async fetch(path, init) {
        assertOpen(`fetch(${JSON.stringify(String(path))})`);
        await before?.();
        return send(jar, path, init);
      },
      withAuth({ userId }) {
        assertOpen('withAuth()');
        if (typeof userId !== 'string' || userId === '')
          throw new TypeError('withAuth: userId must be a non-empty string');
        const auth = app.auth;
        if (!auth)
          throw new Error('withAuth: the app has no kit auth; pass it as createTestContext({ app: { app, auth } })');
        const authJar = createCookieJar();
        let minted: Promise<void> | undefined;
        return view(
          authJar,
          () => (minted ??= mintSession(auth, userId).then((session) => authJar.set(session.name, session.value))),
        );
      },
      async totp(user, params) {
        assertOpen('totp()');
        if (!app.auth)
          throw new Error('totp: the app has no kit auth; pass it as createTestContext({ app: { app, auth } })');
        return currentTotp(app.auth, user, { at: (app.auth.clock ?? clock).now(), ...params });
      },
      cleanup: () => (cleaned ??= (stopRecording?.(), closeAll(app, started, pending, db, runs))),
    };
  }

  return view(createCookieJar());
}
