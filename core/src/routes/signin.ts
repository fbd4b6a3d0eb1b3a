/**
 * `GET /signin` (page) and the credentials sign-in
 * (`POST /callback/credentials`, also reachable as `POST /signin/credentials`).
 * @internal
 * @module
 */
import { isStoredUserOf } from '../storage/stored-user.js';
import { AuthError, InvalidCredentialsError, badRequest } from '../errors.js';
import { authError } from '../errors/auth-error.js';
import { signInPage } from '../pages/pages.js';
import type { CredentialsProvider } from '../providers/types.js';
import type { User } from '../types.js';
import type { ActionResult, RouteContext } from '../contract/types.js';
import { callUser, csrfFor, errorResult, resolveCallbackUrl } from './helpers.js';
import { completeSignIn } from './complete-sign-in.js';
import { emit } from './emit.js';
import { coreMessages } from '../i18n/core/index.js';
import { messageFor } from '../i18n/catalog.js';

export async function signInPageAction(ctx: RouteContext): Promise<ActionResult> {
  const { token, cookie } = await csrfFor(ctx);
  const callbackUrl = await resolveCallbackUrl(ctx, ctx.url.searchParams.get('callbackUrl'));
  const html = signInPage({
    t: coreMessages.for(ctx),
    basePath: ctx.auth.config.basePath,
    providers: [...ctx.auth.providers.values()],
    methods: ctx.auth.signInMethods,
    csrfToken: token,
    callbackUrl,
    error: ctx.url.searchParams.get('error'),
    links: signInLinks(ctx, callbackUrl),
    lastUsed: await lastUsedMethod(ctx),
  });
  return { status: 200, html, cookies: cookie ? [cookie] : [] };
}

/** The key of the method this browser used last, from the first plugin's `lastUsedMethod` hook that answers. */
async function lastUsedMethod(ctx: RouteContext): Promise<string | undefined> {
  for (const hook of ctx.auth.hooks.lastUsedMethod) {
    const key = await hook(ctx);
    if (typeof key === 'string' && key !== '') return key;
  }
  return undefined;
}

/** The sign-in page's links (the plugins' `signInLinks`), carrying `callbackUrl` where they ask for it. */
function signInLinks(ctx: RouteContext, callbackUrl: string): { label: string; href: string }[] {
  const base = ctx.auth.config.basePath;
  const query = callbackUrl !== '/' ? `?callbackUrl=${encodeURIComponent(callbackUrl)}` : '';
  return ctx.auth.signInLinks.map((l) => ({
    label: messageFor(ctx, l.messageId, l.label),
    href: `${base}${l.path}${l.withCallbackUrl ? query : ''}`,
  }));
}

/** Finds the provider named in the path. @throws AuthError `PROVIDER_NOT_FOUND` (404). */
export function providerFor(ctx: RouteContext) {
  const provider = ctx.providerId ? ctx.auth.providers.get(ctx.providerId) : undefined;
  if (!provider) throw authError('PROVIDER_NOT_FOUND', `Unknown provider "${ctx.providerId ?? ''}"`);
  return provider;
}

function isUser(value: unknown): value is User {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as User).id === 'string' &&
    (value as User).id.length > 0
  );
}

/** The credentials sign-in flow. */
export async function credentialsAction(ctx: RouteContext): Promise<ActionResult> {
  const provider = providerFor(ctx);
  if (provider.type !== 'credentials') {
    throw authError('METHOD_NOT_ALLOWED', `Provider "${provider.id}" does not accept credentials`);
  }
  const callbackUrl = await resolveCallbackUrl(ctx, ctx.body.callbackUrl ?? ctx.url.searchParams.get('callbackUrl'));
  try {
    return await signInWithCredentials(ctx, provider, callbackUrl);
  } catch (error) {
    if (error instanceof InvalidCredentialsError) {
      await ctx.attempt?.failed();
      await emit(ctx, 'onSignInFailed', {
        provider: provider.id,
        identifier: ctx.body.email ?? ctx.body.username ?? null,
        reason: 'invalid-credentials',
      });
    }
    if (error instanceof AuthError && error.code === 'ACCESS_DENIED') {
      await emit(ctx, 'onSignInFailed', {
        provider: provider.id,
        identifier: ctx.body.email ?? ctx.body.username ?? null,
        reason: 'denied',
      });
    }
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

async function signInWithCredentials(
  ctx: RouteContext,
  provider: CredentialsProvider,
  callbackUrl: string,
): Promise<ActionResult> {
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
    throw authError('CALLBACK_ERROR', 'The authorize function returned an invalid user');
  }

  let user: User = authorized;
  let isNewUser = false;
  let persist: (() => Promise<User>) | undefined;
  // Database sessions reference a stored user: adopt an authorized user the storage does not know yet.
  if (auth.config.session.strategy === 'database' && auth.adapter) {
    const adapter = auth.adapter;
    // A user `passwordAccounts().authorize` just read from this storage is not read again.
    const stored = isStoredUserOf(user, adapter) ? user : await adapter.getUser(user.id);
    if (stored) user = { ...stored, ...user };
    else {
      isNewUser = true;
      const candidate = user;
      persist = () =>
        callUser(auth, 'storage of the authorized user', () =>
          adapter.createUser({
            id: candidate.id,
            email: candidate.email ?? null,
            name: candidate.name ?? null,
            image: candidate.image ?? null,
            emailVerified: candidate.emailVerified ?? null,
            ...(candidate.role !== undefined ? { role: candidate.role } : {}),
            ...(candidate.roles !== undefined ? { roles: candidate.roles } : {}),
          }),
        ).then((created) => ({ ...created, ...candidate }));
    }
  }

  const account = { provider: provider.id, providerAccountId: user.id, type: 'credentials' as const };
  return completeSignIn(ctx, {
    user,
    account,
    credentials: submitted,
    isNewUser,
    callbackUrl,
    ...(persist ? { persist } : {}),
  });
}
