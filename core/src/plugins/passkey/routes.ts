/**
 * Passkey ceremonies (WebAuthn Level 3) over @simplewebauthn/server.
 * Challenges: single-use (their SHA-256 is stored as a verification token
 * and consumed atomically), expire after 5 minutes, and are bound to the
 * browser by a sealed cookie.
 * @internal
 * @module
 */
import { impersonationRestricted } from '../../routes/account/signed-in.js';
import { webAuthn } from './webauthn.js';
import { AuthError, UnauthenticatedError, badRequest } from '../../errors.js';
import { authError } from '../../errors/auth-error.js';
import { PASSKEY_ERRORS } from './errors.js';
import { pageLocale } from '../../i18n/request-locale.js';
import { sha256Hex } from '../../crypto.js';
import { expiredCookie, readCookie, type OutCookie } from '../../http/cookies.js';
import { seal, unseal } from '../../http/sealed.js';
import type { PasskeyConfig } from './types.js';

/** A passkey provider with `rpId` and `origin` resolved at `createAuth`. */
export type ResolvedPasskey = PasskeyConfig & { readonly rpId: string; readonly origin: string };
import { StorageConflictError, type AdapterUser } from '../../storage/types.js';
import type { ActionResult, AuthInternals, RouteContext } from '../../contract/types.js';
import { errorResult, resolveCallbackUrl, csrfFor } from '../../routes/helpers.js';
import { completeSignIn } from '../../routes/complete-sign-in.js';
import { parseDisplayName, parseEmailAddress, USER_NAME_MAX_LENGTH } from '../../input/text.js';
import { passkeysPage } from './page.js';
import { simpleWebAuthnBundle } from './assets.js';

/** Challenge lifetime, seconds. */
export const CHALLENGE_TTL = 300;
const PURPOSE = 'passkey-challenge';
const CHALLENGE_IDENTIFIER = 'webauthn-challenge';

interface ChallengeData {
  kind: 'register' | 'authenticate';
  challenge: string;
  userId?: string;
  email?: string;
  name?: string;
  signUp?: boolean;
}

function cookieName(auth: AuthInternals): string {
  return `${auth.config.cookies.sessionToken.options.secure ? '__Secure-' : ''}framework.passkey-challenge`;
}

function cookieOptions(auth: AuthInternals): OutCookie['options'] {
  return {
    httpOnly: true,
    secure: auth.config.cookies.sessionToken.options.secure,
    sameSite: 'strict',
    path: auth.config.basePath,
  };
}

function verificationFailed(message = 'The passkey could not be verified'): AuthError {
  return PASSKEY_ERRORS.error('PASSKEY_VERIFICATION_FAILED', message);
}

async function issueChallenge(ctx: RouteContext, data: ChallengeData): Promise<OutCookie> {
  const { auth } = ctx;
  await auth.adapter!.createVerificationToken({
    identifier: CHALLENGE_IDENTIFIER,
    tokenHash: await sha256Hex(data.challenge),
    expires: new Date(auth.clock.now() + CHALLENGE_TTL * 1000),
  });
  return {
    name: cookieName(auth),
    value: await seal({ ...data }, auth.signingKey, PURPOSE, CHALLENGE_TTL, auth.clock),
    options: { ...cookieOptions(auth), maxAge: CHALLENGE_TTL },
  };
}

/** Opens the browser's challenge cookie and consumes the challenge. @throws verificationFailed */
async function consumeChallenge(ctx: RouteContext, kind: ChallengeData['kind']): Promise<ChallengeData> {
  const { auth } = ctx;
  const data = (await unseal(
    readCookie(ctx.request.headers.get('cookie'), cookieName(auth)),
    auth.signingKey,
    PURPOSE,
    auth.clock,
  )) as ChallengeData | null;
  if (!data || data.kind !== kind || typeof data.challenge !== 'string')
    throw verificationFailed('The passkey challenge is missing or expired; start again');
  const used = await auth.adapter!.useVerificationToken({
    identifier: CHALLENGE_IDENTIFIER,
    tokenHash: await sha256Hex(data.challenge),
  });
  if (!used || used.expires.getTime() <= auth.clock.now())
    throw verificationFailed('The passkey challenge was already used or expired; start again');
  return data;
}

/** Runs a @simplewebauthn verification; its refusals (thrown) are logged and become `PASSKEY_VERIFICATION_FAILED`. */
async function ceremony<T>(
  auth: AuthInternals,
  kind: 'registration' | 'authentication',
  verify: () => Promise<T>,
): Promise<T> {
  try {
    return await verify();
  } catch (error) {
    auth.logger.warn(`[auth] passkey ${kind} refused: ${error instanceof Error ? error.message : String(error)}`);
    throw verificationFailed();
  }
}

function parseResponse(ctx: RouteContext): Record<string, unknown> & { id: string } {
  const raw = ctx.body.response;
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 32_768)
    throw badRequest('Field "response" must be the JSON of the WebAuthn credential');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest('Field "response" is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || typeof (parsed as { id?: unknown }).id !== 'string')
    throw badRequest('Field "response" is not a WebAuthn credential');
  return parsed as Record<string, unknown> & { id: string };
}

function clearChallenge(auth: AuthInternals): OutCookie {
  return expiredCookie(cookieName(auth), cookieOptions(auth));
}

function withClear(ctx: RouteContext, result: ActionResult): ActionResult {
  return { ...result, cookies: [...(result.cookies ?? []), clearChallenge(ctx.auth)] };
}

/** `POST /passkey/register/options`. */
export async function registerOptionsAction(ctx: RouteContext, provider: ResolvedPasskey): Promise<ActionResult> {
  const { auth } = ctx;
  const { user, session } = await auth.readSession(ctx.request, { fresh: true });
  // A passkey is a credential: an admin acting as the user never adds one.
  if (session?.impersonatedBy !== undefined) throw impersonationRestricted();
  let data: Omit<ChallengeData, 'challenge'>;
  let userName: string;
  let displayName: string;
  let exclude: { id: string; transports?: AuthenticatorTransport[] }[] = [];
  if (user) {
    data = { kind: 'register', userId: user.id };
    userName = user.email ?? user.id;
    displayName = user.name ?? userName;
    exclude = (await auth.adapter!.listAuthenticators(user.id)).map((a) => ({
      id: a.credentialId,
      transports: a.transports as AuthenticatorTransport[],
    }));
  } else {
    if (!provider.allowSignUp) throw new UnauthenticatedError('Sign in before adding a passkey');
    const email = parseEmailAddress(ctx.body.email);
    if (!email) throw badRequest('Enter a valid email address');
    if (await auth.adapter!.getUserByEmail(email)) throw authError('EMAIL_TAKEN');
    const name = parseDisplayName(ctx.body.name, { maxLength: USER_NAME_MAX_LENGTH }) ?? undefined;
    data = { kind: 'register', userId: crypto.randomUUID(), email, ...(name ? { name } : {}), signUp: true };
    userName = email;
    displayName = name ?? email;
  }
  const { generateRegistrationOptions } = await webAuthn();
  const options = await generateRegistrationOptions({
    rpName: provider.rpName,
    rpID: provider.rpId,
    userName,
    userDisplayName: displayName,
    userID: new TextEncoder().encode(data.userId!),
    attestationType: 'none',
    excludeCredentials: exclude,
    authenticatorSelection: {
      residentKey: provider.residentKey,
      userVerification: provider.userVerification,
      ...(provider.authenticatorAttachment ? { authenticatorAttachment: provider.authenticatorAttachment } : {}),
    },
    timeout: CHALLENGE_TTL * 1000,
  });
  const cookie = await issueChallenge(ctx, { ...data, challenge: options.challenge });
  return { status: 200, json: options, cookies: [cookie] };
}

/**
 * `POST /passkey/register/verify` (fields `response`: the credential JSON; `name`: a label, at most 100 characters,
 * refused with `INVALID_REQUEST` before the challenge is used when it holds control, bidi or invisible characters).
 */
export async function registerVerifyAction(ctx: RouteContext, provider: ResolvedPasskey): Promise<ActionResult> {
  const { verifyRegistrationResponse, isoBase64URL } = await webAuthn();
  const { auth } = ctx;
  try {
    const label = parseDisplayName(ctx.body.name, { maxLength: 100 }) ?? 'Passkey';
    const data = await consumeChallenge(ctx, 'register');
    const { user: current } = await auth.readSession(ctx.request, { fresh: true });
    if (!data.signUp && current?.id !== data.userId)
      throw new UnauthenticatedError('Sign in again before adding a passkey');
    const response = parseResponse(ctx);
    const verification = await ceremony(auth, 'registration', () =>
      verifyRegistrationResponse({
        response: response as never,
        expectedChallenge: data.challenge,
        expectedOrigin: provider.origin,
        expectedRPID: provider.rpId,
        requireUserVerification: provider.userVerification === 'required',
      }),
    );
    if (!verification.verified || !verification.registrationInfo) throw verificationFailed();
    const info = verification.registrationInfo;
    const adapter = auth.adapter!;
    const transports = Array.isArray((response.response as { transports?: unknown })?.transports)
      ? (response.response as { transports: string[] }).transports
      : (info.credential.transports ?? []);
    const account = { provider: provider.id, providerAccountId: info.credential.id, type: 'webauthn' as const };
    /** Stores the credential for `user` and links it as an account. */
    const store = async (user: AdapterUser) => {
      try {
        await adapter.createAuthenticator({
          credentialId: info.credential.id,
          userId: user.id,
          publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
          counter: info.credential.counter,
          transports,
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
          name: label,
          createdAt: new Date(ctx.auth.clock.now()),
        });
      } catch (error) {
        if (error instanceof StorageConflictError) throw verificationFailed('This passkey is registered already');
        throw error;
      }
      await adapter.linkAccount({ ...account, userId: user.id });
      return user;
    };
    const credential = { id: info.credential.id, name: label };
    if (data.signUp) {
      // Sign-up is a sign-in: the signIn callback decides before anything is stored.
      const candidate = { id: data.userId!, email: data.email ?? null, name: data.name ?? null, emailVerified: null };
      return withClear(
        ctx,
        await completeSignIn(ctx, {
          user: candidate,
          account,
          isNewUser: true,
          callbackUrl: await resolveCallbackUrl(ctx, ctx.body.callbackUrl),
          json: { credential },
          persist: async () => {
            let user: AdapterUser;
            try {
              user = await adapter.createUser(candidate);
            } catch (error) {
              if (error instanceof StorageConflictError) throw authError('EMAIL_TAKEN');
              throw error;
            }
            return store(user);
          },
        }),
      );
    }
    const user = current ? await adapter.getUser(current.id) : null;
    if (!user) throw new UnauthenticatedError();
    await store(user);
    return withClear(ctx, { status: 200, json: { ok: true, credential } });
  } catch (error) {
    return withClear(ctx, errorResult(ctx, error));
  }
}

/** `POST /passkey/authenticate/options`: discoverable credentials, so no username is needed. */
export async function authenticateOptionsAction(ctx: RouteContext, provider: ResolvedPasskey): Promise<ActionResult> {
  const { generateAuthenticationOptions } = await webAuthn();
  const options = await generateAuthenticationOptions({
    rpID: provider.rpId,
    userVerification: provider.userVerification,
    allowCredentials: [],
    timeout: CHALLENGE_TTL * 1000,
  });
  const cookie = await issueChallenge(ctx, { kind: 'authenticate', challenge: options.challenge });
  return { status: 200, json: options, cookies: [cookie] };
}

/** `POST /passkey/authenticate/verify` (field `response`): signs in. */
export async function authenticateVerifyAction(ctx: RouteContext, provider: ResolvedPasskey): Promise<ActionResult> {
  const { verifyAuthenticationResponse, isoBase64URL } = await webAuthn();
  const { auth } = ctx;
  try {
    const data = await consumeChallenge(ctx, 'authenticate');
    const response = parseResponse(ctx);
    const adapter = auth.adapter!;
    const stored = await adapter.getAuthenticator(response.id);
    if (!stored) throw verificationFailed('This passkey is not registered here');
    const verification = await ceremony(auth, 'authentication', () =>
      verifyAuthenticationResponse({
        response: response as never,
        expectedChallenge: data.challenge,
        expectedOrigin: provider.origin,
        expectedRPID: provider.rpId,
        credential: {
          id: stored.credentialId,
          publicKey: isoBase64URL.toBuffer(stored.publicKey),
          counter: stored.counter,
          transports: stored.transports as AuthenticatorTransport[],
        },
        requireUserVerification: provider.userVerification === 'required',
      }),
    );
    if (!verification.verified) throw verificationFailed();
    await adapter.updateAuthenticatorCounter(stored.credentialId, verification.authenticationInfo.newCounter);
    const user = await adapter.getUser(stored.userId);
    if (!user) throw verificationFailed();
    const account = { provider: provider.id, providerAccountId: stored.credentialId, type: 'webauthn' as const };
    return withClear(
      ctx,
      await completeSignIn(ctx, {
        user,
        account,
        isNewUser: false,
        callbackUrl: await resolveCallbackUrl(ctx, ctx.body.callbackUrl),
      }),
    );
  } catch (error) {
    return withClear(ctx, errorResult(ctx, error));
  }
}

/** `GET /passkey/credentials`: the signed-in user's passkeys. */
export async function listPasskeysAction(ctx: RouteContext): Promise<ActionResult> {
  const { user } = await ctx.auth.readSession(ctx.request);
  if (!user) throw new UnauthenticatedError();
  const list = await ctx.auth.adapter!.listAuthenticators(user.id);
  list.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  return {
    status: 200,
    json: list.map((a) => ({
      id: a.credentialId,
      name: a.name,
      createdAt: a.createdAt.toISOString(),
      deviceType: a.deviceType,
      backedUp: a.backedUp,
      transports: a.transports,
    })),
  };
}

/** `POST /passkey/delete` (field `credentialId`): deletes one of the signed-in user's passkeys. */
export async function deletePasskeyAction(ctx: RouteContext, provider: ResolvedPasskey): Promise<ActionResult> {
  const { user } = await ctx.auth.readSession(ctx.request, { fresh: true });
  if (!user) throw new UnauthenticatedError();
  const id = ctx.body.credentialId;
  if (!id) throw badRequest('Missing required field(s): credentialId');
  const deleted = await ctx.auth.adapter!.deleteAuthenticator(user.id, id);
  if (deleted) await ctx.auth.adapter!.unlinkAccount({ provider: provider.id, providerAccountId: id });
  if (!deleted) throw authError('NOT_FOUND', 'No such passkey');
  if (ctx.wantsJson) return { status: 200, json: { ok: true } };
  return { status: 303, redirect: `${ctx.auth.config.basePath}/passkey` };
}

/** `GET /passkey`: the management page (signed-in users; others go to the sign-in page). */
export async function passkeysPageAction(ctx: RouteContext): Promise<ActionResult> {
  const { user } = await ctx.auth.readSession(ctx.request);
  if (!user)
    return {
      status: 302,
      redirect: `${ctx.auth.config.pages.signIn}?callbackUrl=${encodeURIComponent(`${ctx.auth.config.basePath}/passkey`)}`,
    };
  const { token, cookie } = await csrfFor(ctx);
  const passkeys = (await ctx.auth.adapter!.listAuthenticators(user.id)).sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
  );
  return {
    status: 200,
    html: passkeysPage({
      basePath: ctx.auth.config.basePath,
      csrfToken: token,
      passkeys: passkeys.map((p) => ({ id: p.credentialId, name: p.name, createdAt: p.createdAt })),
      locale: pageLocale(ctx),
    }),
    cookies: cookie ? [cookie] : [],
  };
}

/** `GET /passkey/browser.js`: the @simplewebauthn/browser bundle for the default pages. */
export async function passkeyBrowserScriptAction(_ctx: RouteContext): Promise<ActionResult> {
  return {
    status: 200,
    text: await simpleWebAuthnBundle(),
    contentType: 'text/javascript; charset=utf-8',
    headers: { 'cache-control': 'public, max-age=86400' },
  };
}
