/**
 * `GET /signin` (page) and the credentials sign-in
 * (`POST /callback/credentials`, also reachable as `POST /signin/credentials`).
 * @internal
 * @module
 */
import { AuthError, InvalidCredentialsError, badRequest } from '../errors.js';
import { readCookie } from '../http/cookies.js';
import { signInPage } from '../pages/pages.js';
import type { CredentialsProvider } from '../providers/types.js';
import type { User } from '../types.js';
import type { ActionResult, RouteContext } from './context.js';
import { callUser, csrfFor, errorResult, resolveCallbackUrl, sessionCookie } from './helpers.js';

export async function signInPageAction(ctx: RouteContext): Promise<ActionResult> {
  const { token, cookie } = await csrfFor(ctx);
  const callbackUrl = await resolveCallbackUrl(ctx, ctx.url.searchParams.get('callbackUrl'));
  const html = signInPage({
    basePath: ctx.auth.config.basePath,
    providers: [...ctx.auth.providers.values()],
    csrfToken: token,
    callbackUrl,
    error: ctx.url.searchParams.get('error'),
  });
  return { status: 200, html, cookies: cookie ? [cookie] : [] };
}

/** Finds the provider named in the path. @throws AuthError `PROVIDER_NOT_FOUND` (404). */
export function providerFor(ctx: RouteContext) {
  const provider = ctx.providerId ? ctx.auth.providers.get(ctx.providerId) : undefined;
  if (!provider) throw new AuthError(`Unknown provider "${ctx.providerId ?? ''}"`, { code: 'PROVIDER_NOT_FOUND', status: 404 });
  return provider;
}

function isUser(value: unknown): value is User {
  return value !== null && typeof value === 'object' && typeof (value as User).id === 'string' && (value as User).id.length > 0;
}

/** The credentials sign-in flow. */
export async function credentialsAction(ctx: RouteContext): Promise<ActionResult> {
  const provider = providerFor(ctx);
  if (provider.type !== 'credentials') {
    throw new AuthError(`Provider "${provider.id}" does not accept credentials`, { code: 'METHOD_NOT_ALLOWED', status: 405 });
  }
  const callbackUrl = await resolveCallbackUrl(ctx, ctx.body.callbackUrl ?? ctx.url.searchParams.get('callbackUrl'));
  try {
    return await signInWithCredentials(ctx, provider, callbackUrl);
  } catch (error) {
    if (error instanceof InvalidCredentialsError && !ctx.wantsJson) {
      const to = `${ctx.auth.config.pages.signIn}?error=CredentialsSignin&callbackUrl=${encodeURIComponent(callbackUrl)}`;
      return { status: 303, redirect: to };
    }
    if (error instanceof AuthError && error.code === 'ACCESS_DENIED' && !ctx.wantsJson) {
      return { status: 303, redirect: `${ctx.auth.config.pages.error}?error=AccessDenied` };
    }
    return errorResult(ctx, error);
  }
}

async function signInWithCredentials(ctx: RouteContext, provider: CredentialsProvider, callbackUrl: string): Promise<ActionResult> {
  const { auth } = ctx;
  const submitted: Record<string, string> = {};
  const missing: string[] = [];
  for (const [name, field] of Object.entries(provider.credentials)) {
    const value = ctx.body[name];
    if (typeof value === 'string' && value.length > 0) submitted[name] = value;
    else if (field.required) missing.push(name);
  }
  if (missing.length > 0) throw badRequest(`Missing required field(s): ${missing.join(', ')}`);

  const authorized = await callUser(auth, 'authorize function', async () => {
    try {
      return await provider.authorize({ ...submitted }, { env: auth.env, request: ctx.request });
    } catch (e) {
      if (e instanceof InvalidCredentialsError) return null;
      throw e;
    }
  });
  if (authorized === null || authorized === undefined) throw new InvalidCredentialsError();
  if (!isUser(authorized)) {
    auth.logger.error('[auth] authorize returned a value without a string `id`');
    throw new AuthError('The authorize function returned an invalid user', { code: 'CALLBACK_ERROR', status: 500 });
  }

  let user: User = authorized;
  let isNewUser = false;
  // Database sessions reference a stored user: adopt an authorized user the storage does not know yet.
  if (auth.config.session.strategy === 'database' && auth.adapter) {
    const adapter = auth.adapter;
    const stored = await adapter.getUser(user.id);
    if (stored) user = { ...stored, ...user };
    else {
      await callUser(auth, 'storage of the authorized user', () =>
        adapter.createUser({
          id: user.id,
          email: user.email ?? null,
          name: user.name ?? null,
          image: user.image ?? null,
          emailVerified: user.emailVerified ?? null,
          ...(user.role !== undefined ? { role: user.role } : {}),
          ...(user.roles !== undefined ? { roles: user.roles } : {}),
        }),
      );
      isNewUser = true;
    }
  }

  const account = { provider: provider.id, providerAccountId: user.id, type: 'credentials' as const };
  const redirectTo = await allowSignIn(ctx, { user, account, credentials: submitted });
  const issued = await callUser(auth, 'jwt callback', () =>
    auth.strategy.issue({
      user,
      account,
      isNewUser,
      ...withPrevious(ctx),
    }),
  );
  const url = redirectTo ?? (isNewUser && auth.config.pages.newUser ? auth.config.pages.newUser : callbackUrl);
  const cookies = [sessionCookie(auth, issued.value, issued.expires)];
  if (ctx.wantsJson) return { status: 200, json: { ok: true, url }, cookies };
  return { status: 303, redirect: url, cookies };
}

function withPrevious(ctx: RouteContext): { previous?: string } {
  const previous = readCookie(ctx.request.headers.get('cookie'), ctx.auth.config.cookies.sessionToken.name);
  return previous ? { previous } : {};
}

/**
 * Runs the `signIn` callback. Returns a redirect URL when the callback
 * answered with one. @throws AuthError `ACCESS_DENIED` (403) when it answered false.
 */
export async function allowSignIn(
  ctx: RouteContext,
  params: Parameters<NonNullable<RouteContext['auth']['callbacks']['signIn']>>[0],
): Promise<string | undefined> {
  const cb = ctx.auth.callbacks.signIn;
  if (!cb) return undefined;
  const verdict = await callUser(ctx.auth, 'signIn callback', () => cb(params));
  if (verdict === false) throw new AuthError('Sign-in was denied', { code: 'ACCESS_DENIED', status: 403 });
  if (typeof verdict === 'string') return resolveCallbackUrl(ctx, verdict);
  return undefined;
}
