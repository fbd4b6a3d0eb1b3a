/**
 * The routes of `username()` under `basePath`, its sign-up field (a name held at sign-up) and the hooks that bind a
 * held name to the new account.
 * @module
 * @internal
 */
import { hashPassword, PASSWORD_PROVIDER, verifyPassword } from '../../index.js';
import {
  authError,
  completeSignIn,
  csrfFor,
  errorMessageFor,
  pageLocale,
  done,
  emit,
  parseEmailAddress,
  passwordHashOf,
  randomString,
  resolveCallbackUrl,
  signedIn,
  signedInAsSelf,
  signInRedirect,
  storageOf,
  type Action,
  type ActionResult,
  type AuthPlugin,
  type PluginRoute,
  type RouteContext,
  type RouteRateLimit,
  type SignUpField,
} from '../../plugin-kit.js';
import { USERNAME_ERRORS } from './errors.js';
import { parseUsername, type ParsedUsername } from './normalize.js';
import type { ResolvedUsernameOptions } from './options.js';
import { settingsPage } from './pages.js';
import { usernameMessages } from './messages.js';
import type { UsernameStorage } from './storage/types.js';

const NO_STORE = { 'cache-control': 'no-store' };

/** The route templates the plugin serves or watches, under `basePath`. */
const AVAILABLE = 'username/available';

function parsed(o: ResolvedUsernameOptions, input: unknown): ParsedUsername {
  const name = parseUsername(input, o.rules);
  if (!name) throw USERNAME_ERRORS.error('USERNAME_INVALID');
  return name;
}

/**
 * The budget of requests that tell whether a name is taken (availability checks, sign-up reservations, username
 * changes): counted per client IP on the `emailVerification` limiter (default: the login limiter); an app's
 * `rateLimit.rules['/username/available']` replaces it on that route.
 */
function probeLimit(ctx: RouteContext): RouteRateLimit | undefined {
  const limiter = ctx.auth.limiters.emailVerification;
  return limiter ? { limiter, mode: 'count', identifier: `username-probe:${ctx.ip ?? ''}` } : undefined;
}

/** Counts a probe where the dispatcher does not (GETs, `beforeAction`): 429 `RATE_LIMITED` when the budget is spent. */
async function countProbe(ctx: RouteContext): Promise<void> {
  const policy = probeLimit(ctx);
  if (!policy) return;
  const verdict = await policy.limiter.check(ctx.request, {
    ...(ctx.ip ? { ip: ctx.ip } : {}),
    identifier: policy.identifier as string,
  });
  if (verdict.success) return;
  const headers: Record<string, string> = {};
  verdict.headers.forEach((value, key) => {
    headers[key] = value;
  });
  throw authError('RATE_LIMITED', { headers });
}

/** `GET|POST /username/available` (`username`): `{available}`; 400 `USERNAME_INVALID` for a name never allowed. */
function availableAction(o: ResolvedUsernameOptions, storage: UsernameStorage): Action {
  return async (ctx) => {
    const template = `${ctx.auth.config.basePath}/${AVAILABLE}`;
    // A POST is counted by the dispatcher (the route's rateLimit); a GET only by an app's rule, if any.
    if (ctx.request.method !== 'POST' && !ctx.auth.limiters.rules.has(template)) await countProbe(ctx);
    const input = ctx.request.method === 'POST' ? ctx.body.username : ctx.url.searchParams.get('username');
    const name = parsed(o, input);
    const { user } = await ctx.auth.readSession(ctx.request);
    const available = await storage.isFree(name.username, new Date(ctx.auth.clock.now()), user?.id);
    return { status: 200, json: { available, username: name.username }, headers: NO_STORE };
  };
}

/** An argon2 hash of nothing anyone knows, verified against when there is no stored hash (same work, same time). */
function dummyHash(): () => Promise<string> {
  let hash: Promise<string> | undefined;
  return () => (hash ??= hashPassword(randomString(24)));
}

/**
 * The user a username names: its holder, or for a name reserved at a sign-up the account made with that address.
 * The same storage and adapter reads whether or not the name exists.
 */
async function userOf(ctx: RouteContext, storage: UsernameStorage, name: ParsedUsername | null) {
  const owner = name ? await storage.lookup(name.username) : null;
  const adapter = storageOf(ctx);
  if (owner && 'email' in owner) return { user: await adapter.getUserByEmail(owner.email), reservedFor: owner.email };
  return { user: await adapter.getUser(owner?.userId ?? ''), reservedFor: null };
}

/** The account a username names, as the login limiter counts it: its email (shared with email sign-in), else the name. */
async function accountOf(ctx: RouteContext, o: ResolvedUsernameOptions, storage: UsernameStorage): Promise<string> {
  const name = parseUsername(ctx.body.username, o.rules);
  const { user } = await userOf(ctx, storage, name);
  return user?.email ?? `username:${name?.username ?? String(ctx.body.username ?? '')}`;
}

/**
 * `POST /username/sign-in` (`username`, `password`, `callbackUrl`): the email-and-password check with a username.
 * One argon2 verification whatever the name (a dummy hash for an unknown one, or for an account without a
 * password), then `completeSignIn` as a
 * password sign-in (`account.provider` `credentials`: `emailAndPassword()`'s verification gate applies).
 */
function signInAction(o: ResolvedUsernameOptions, storage: UsernameStorage, dummy: () => Promise<string>): Action {
  return async (ctx) => {
    const callbackUrl = await resolveCallbackUrl(ctx, ctx.body.callbackUrl ?? ctx.url.searchParams.get('callbackUrl'));
    const fallback = await dummy();
    const name = parseUsername(ctx.body.username, o.rules);
    const { user, reservedFor } = await userOf(ctx, storage, name);
    const hash = await passwordHashOf(ctx, user?.id ?? '');
    const password = typeof ctx.body.password === 'string' ? ctx.body.password : '';
    const ok = await verifyPassword(password, hash ?? fallback);
    if (!ok || !user || !hash) {
      await ctx.attempt?.failed();
      await emit(ctx, 'onSignInFailed', {
        provider: PASSWORD_PROVIDER,
        identifier: name?.username ?? null,
        reason: 'invalid-credentials',
      });
      if (ctx.wantsJson) throw authError('INVALID_CREDENTIALS');
      const to = `${ctx.auth.config.pages.signIn}?error=CredentialsSignin&callbackUrl=${encodeURIComponent(callbackUrl)}`;
      return { status: 303, redirect: to };
    }
    // A name held at sign-up: the account's first sign-in with it takes it.
    if (reservedFor !== null && !(await storage.findByUser(user.id)))
      await storage.bindReservation(reservedFor, user.id);
    return completeSignIn(ctx, {
      user,
      account: { provider: PASSWORD_PROVIDER, providerAccountId: user.id, type: 'credentials' },
      isNewUser: false,
      callbackUrl,
    });
  };
}

/** The settings page for the signed-in caller, with a fresh CSRF token. */
async function settings(
  ctx: RouteContext,
  o: ResolvedUsernameOptions,
  storage: UsernameStorage,
  extra: { error?: string; saved?: boolean } = {},
): Promise<ActionResult> {
  const caller = await signedIn(ctx);
  const { token, cookie } = await csrfFor(ctx);
  const html = settingsPage({
    basePath: ctx.auth.config.basePath,
    csrfToken: token,
    current: (await storage.findByUser(caller.user.id))?.displayUsername ?? null,
    minLength: o.rules.minLength,
    maxLength: o.rules.maxLength,
    locale: pageLocale(ctx),
    ...extra,
  });
  return { status: 200, html, cookies: [...caller.cookies, ...(cookie ? [cookie] : [])], headers: NO_STORE };
}

/** `POST /username/update` (`username`): sets or changes the signed-in user's own username (not an impersonation). */
function updateAction(o: ResolvedUsernameOptions, storage: UsernameStorage): Action {
  return async (ctx) => {
    try {
      const caller = await signedInAsSelf(ctx);
      const name = parsed(o, ctx.body.username);
      const assigned = await storage.assign({ ...name, userId: caller.user.id }, new Date(ctx.auth.clock.now()));
      if (!assigned) throw USERNAME_ERRORS.error('USERNAME_TAKEN');
      const back = `${ctx.auth.config.basePath}/username/update?saved=1`;
      return done(ctx, { username: name.username, displayUsername: name.displayUsername }, back, caller.cookies);
    } catch (error) {
      const status = (error as { status?: number }).status ?? 500;
      const shown = error instanceof Error && status >= 400 && status < 500 && status !== 401;
      if (ctx.wantsJson || !shown) throw error;
      const coded = error as Error & { code?: unknown };
      const message =
        typeof coded.code === 'string'
          ? errorMessageFor(ctx, { code: coded.code, message: coded.message }, usernameMessages)
          : coded.message;
      return { ...(await settings(ctx, o, storage, { error: message })), status };
    }
  };
}

/** `GET /username`: the signed-in user's `{username, displayUsername}` (nulls without one). */
function currentAction(storage: UsernameStorage): Action {
  return async (ctx) => {
    const caller = await signedIn(ctx);
    const record = await storage.findByUser(caller.user.id);
    return {
      status: 200,
      json: { username: record?.username ?? null, displayUsername: record?.displayUsername ?? null },
      cookies: caller.cookies,
      headers: NO_STORE,
    };
  };
}

/** The route table of `username()`. */
export function usernameRoutes(o: ResolvedUsernameOptions): Record<string, PluginRoute> {
  const storage = o.storage.storage;
  const dummy = dummyHash();
  return {
    username: { GET: currentAction(storage) },
    [AVAILABLE]: { GET: availableAction(o, storage), POST: availableAction(o, storage), rateLimit: probeLimit },
    'username/sign-in': {
      POST: signInAction(o, storage, dummy),
      rateLimit: (ctx) => {
        const { login } = ctx.auth.limiters;
        return login ? { limiter: login, mode: 'attempt', identifier: () => accountOf(ctx, o, storage) } : undefined;
      },
    },
    'username/update': {
      GET: async (ctx) =>
        (await signInRedirect(ctx)) ?? settings(ctx, o, storage, { saved: ctx.url.searchParams.has('saved') }),
      POST: updateAction(o, storage),
      rateLimit: probeLimit,
    },
  };
}

/**
 * The sign-up field `username` (`POST /signup`, JSON or the default page): a name given is checked and held for the
 * sign-up's address before the account is made (400 `USERNAME_INVALID`, 409 `USERNAME_TAKEN`, counted as a probe);
 * the account gets it at once when the sign-up signs in, else at its first password sign-in while the hold lasts.
 */
export function usernameSignUpField(o: ResolvedUsernameOptions): SignUpField<ParsedUsername | undefined> {
  const storage = o.storage.storage;
  return {
    name: 'username',
    label: 'Username',
    messageId: 'username.username',
    autocomplete: 'username',
    minLength: o.rules.minLength,
    maxLength: o.rules.maxLength,
    async check(ctx, { value, email }) {
      if (value === undefined) return undefined;
      await countProbe(ctx);
      const name = parsed(o, value);
      const now = new Date(ctx.auth.clock.now());
      if (!(await storage.isFree(name.username, now))) throw USERNAME_ERRORS.error('USERNAME_TAKEN');
      // An address with an account already: the sign-up refuses it (or answers as it always does); nothing is held.
      if (await storageOf(ctx).getUserByEmail(email)) return undefined;
      const expiresAt = new Date(now.getTime() + o.reservationTtlMs);
      if (!(await storage.reserve({ ...name, email, expiresAt }, now))) throw USERNAME_ERRORS.error('USERNAME_TAKEN');
      return name;
    },
    async persist(_ctx, { user, signsIn }) {
      if (signsIn) await bindHeld(storage, user);
    },
  };
}

/** Gives `user` the name held for their address at sign-up, unless they have one. */
async function bindHeld(storage: UsernameStorage, user: { id: string; email?: string | null }): Promise<void> {
  const email = user.email ? parseEmailAddress(user.email) : null;
  if (email && !(await storage.findByUser(user.id))) await storage.bindReservation(email, user.id);
}

/**
 * The hooks: a held name goes to the account at its first password sign-in (a sign-up that did not sign in);
 * deleting the user releases it.
 */
export function usernameHooks(o: ResolvedUsernameOptions): NonNullable<AuthPlugin['hooks']> {
  const storage = o.storage.storage;
  return {
    async afterSignIn(_ctx, subject) {
      if (subject.account?.provider === PASSWORD_PROVIDER && !subject.isNewUser) await bindHeld(storage, subject.user);
    },
    async userDeleted(userId) {
      await storage.removeUser(userId);
    },
  };
}
