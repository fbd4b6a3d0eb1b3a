/**
 * What `createTestContext` accepts as the app, and how each form is served
 * in-process: a Web fetch handler, an object with `fetch` (a Hono app), the
 * kit's `Auth` or `TriggerRuntime`, or a bundle of these.
 * @module
 */
import type { Auth } from '@framework/auth';
import type { TriggerRuntime } from '@framework/trigger';

/** `waitUntil` for handlers that take an execution context (Hono's `c.executionCtx`). */
export interface TestExecutionContext {
  waitUntil(promise: Promise<unknown>): void;
  passThroughOnException(): void;
  /** Per-request properties (empty). */
  props: Record<string, unknown>;
}

/** A Web fetch handler, `(request, env?, ctx?) → Response`. */
export type FetchHandler = (
  request: Request,
  env?: any,
  executionContext?: TestExecutionContext,
) => Response | Promise<Response>;

/** An object whose `fetch` is a {@link FetchHandler}, such as a Hono app. */
export interface FetchApp {
  fetch: FetchHandler;
}

/** Several parts of one app: what serves requests, its auth, its triggers, how to close it. */
export interface TestAppBundle {
  /** Serves every request. Without it, the runtime's webhooks and then `auth.handler` do. */
  app?: FetchHandler | FetchApp;
  /** The kit's auth: `withAuth` mints sessions with it. */
  auth?: Auth;
  /** The kit's trigger runtime: started with the context, stopped by `cleanup()`. */
  runtime?: TriggerRuntime;
  /** Called by `cleanup()`, after the runtime has stopped. */
  close?(): unknown;
}

/**
 * Any form of app `createTestContext` can serve.
 * @example
 * ```ts
 * const app: TestApp = { app: honoApp, auth, runtime, close: () => db.close() };
 * ```
 */
export type TestApp = FetchHandler | FetchApp | Auth | TriggerRuntime | TestAppBundle;

/** A {@link TestApp} reduced to what the context needs. */
export interface ResolvedApp {
  handle(request: Request, env: unknown, executionContext: TestExecutionContext): Promise<Response>;
  auth?: Auth;
  runtime?: TriggerRuntime;
  close?(): unknown;
}

const isFunction = (value: unknown): value is (...args: never[]) => unknown => typeof value === 'function';

function isAuth(value: object): value is Auth {
  const v = value as Partial<Auth>;
  return isFunction(v.handler) && isFunction(v.getSession) && typeof v.config === 'object';
}

function isRuntime(value: object): value is TriggerRuntime {
  const v = value as Partial<TriggerRuntime>;
  return (
    isFunction(v.dispatch) && isFunction(v.queue) && isFunction(v.start) && isFunction(v.stop) && isFunction(v.fetch)
  );
}

const notFound = () => new Response('Not found', { status: 404 });

/** Serves webhooks first, then the auth routes, then 404. */
function kitHandler(auth: Auth | undefined, runtime: TriggerRuntime | undefined): ResolvedApp['handle'] {
  return async (request) => {
    const handled = runtime ? await runtime.fetch(request) : null;
    if (handled) return handled;
    return auth ? auth.handler(request) : notFound();
  };
}

function fromBundle(bundle: TestAppBundle): ResolvedApp {
  const { app, auth, runtime } = bundle;
  let handle: ResolvedApp['handle'];
  if (isFunction(app)) handle = async (request, env, ctx) => app(request, env, ctx);
  else if (app && isFunction(app.fetch)) handle = async (request, env, ctx) => app.fetch(request, env, ctx);
  else if (app !== undefined)
    throw new TypeError('createTestContext: `app.app` must be a fetch handler or an object with fetch() (a Hono app)');
  else handle = kitHandler(auth, runtime);
  return {
    handle,
    ...(auth ? { auth } : {}),
    ...(runtime ? { runtime } : {}),
    ...(bundle.close ? { close: () => bundle.close?.() } : {}),
  };
}

/**
 * Reduces any accepted app form to a handler plus the kit objects found.
 *
 * @throws TypeError for anything else, naming the accepted forms.
 * @example
 * ```ts
 * const resolved = resolveApp({ app: honoApp, auth });
 * const response = await resolved.handle(new Request('http://localhost/'), undefined, executionContext);
 * ```
 */
export function resolveApp(app: TestApp): ResolvedApp {
  if (isFunction(app)) return fromBundle({ app });
  if (app && typeof app === 'object') {
    if (isAuth(app)) return fromBundle({ auth: app });
    if (isRuntime(app)) return fromBundle({ runtime: app });
    if (isFunction((app as FetchApp).fetch)) return fromBundle({ app: app as FetchApp });
    const bundle = app as TestAppBundle;
    if (bundle.app !== undefined || bundle.auth !== undefined || bundle.runtime !== undefined)
      return fromBundle(bundle);
  }
  throw new TypeError(
    "createTestContext: `app` must be a fetch handler, an object with fetch() (a Hono app), the kit's Auth or TriggerRuntime, or {app?, auth?, runtime?, close?}",
  );
}
