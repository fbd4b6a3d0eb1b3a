/**
 * The passkey ceremonies behind `signIn.passkey()` and `addPasskey()`. This module and `@simplewebauthn/browser`
 * are one chunk that `passkey.ts` imports on first use, so the page's up-front bundle carries neither. It takes
 * the client's own helpers as a `PasskeyKit` instead of importing them, so the chunk shares no module with the page
 * bundle and a bundler splits off no extra shared chunk for them.
 * @internal
 * @module
 */
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';
import type { AccountResult } from './account.js';
import type { Answer, call, csrfToken, currentUrl, endpoint, Endpoint, errorCode } from './http.js';
import type { AddedPasskey, AddPasskeyOptions, PasskeySignInOptions } from './passkey-types.js';
import type { finishSignIn, SignInResult } from './sign-in-answer.js';

/** The client's helpers the ceremonies use, handed over by passkey.ts. */
export interface PasskeyKit {
  call: typeof call;
  csrfToken: typeof csrfToken;
  currentUrl: typeof currentUrl;
  endpoint: typeof endpoint;
  errorCode: typeof errorCode;
  finishSignIn: typeof finishSignIn;
}

/** A ceremony that ended before the verify route answered: a result with `status` 0 or the options route's error. */
type Failure = { ok: false; status: number; error: string };

/** The code of a browser refusal: dismissed or timed out, a passkey this authenticator already holds, or other. */
function browserErrorCode(error: unknown): string {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'PASSKEY_ALREADY_REGISTERED';
  if (name === 'NotAllowedError' || name === 'AbortError') return 'PASSKEY_CANCELLED';
  return 'PASSKEY_FAILED';
}

/**
 * One WebAuthn ceremony against the routes: a CSRF token, `POST /passkey/<kind>/options`, the browser's part, then
 * `POST /passkey/<kind>/verify` with `fields` and the credential's JSON. Never rejects.
 */
async function ceremony(
  { call, csrfToken, errorCode }: PasskeyKit,
  ep: Endpoint,
  kind: 'register' | 'authenticate',
  fields: Record<string, unknown>,
): Promise<Answer | Failure> {
  if (!browserSupportsWebAuthn()) return { ok: false, status: 0, error: 'PASSKEY_UNSUPPORTED' };
  let token: string;
  let options: Answer;
  try {
    token = await csrfToken(ep);
    options = await call(ep, `/passkey/${kind}/options`, { csrfToken: token });
  } catch {
    return { ok: false, status: 0, error: 'FETCH_ERROR' };
  }
  if (!options.ok) return { ok: false, status: options.status, error: errorCode(options) };
  let credential: unknown;
  try {
    const optionsJSON = options.data as never;
    credential =
      kind === 'register' ? await startRegistration({ optionsJSON }) : await startAuthentication({ optionsJSON });
  } catch (error) {
    return { ok: false, status: 0, error: browserErrorCode(error) };
  }
  try {
    return await call(ep, `/passkey/${kind}/verify`, {
      ...fields,
      csrfToken: token,
      response: JSON.stringify(credential),
    });
  } catch {
    return { ok: false, status: 0, error: 'FETCH_ERROR' };
  }
}

const ended = (outcome: Answer | Failure): outcome is Failure => 'error' in outcome;

/** `signIn.passkey(options?)`: see `SignIn.passkey` in sign-in.ts. */
export async function signInWithPasskey(kit: PasskeyKit, options: PasskeySignInOptions = {}): Promise<SignInResult> {
  const ep = kit.endpoint(options);
  const callbackUrl = options.redirectTo ?? options.callbackUrl ?? kit.currentUrl();
  const outcome = await ceremony(kit, ep, 'authenticate', callbackUrl ? { callbackUrl } : {});
  return ended(outcome) ? outcome : kit.finishSignIn(ep, outcome, options);
}

/** `addPasskey(options?)`: see passkey.ts. */
export async function addPasskey(
  kit: PasskeyKit,
  options: AddPasskeyOptions = {},
): Promise<AccountResult<AddedPasskey>> {
  const outcome = await ceremony(
    kit,
    kit.endpoint(options),
    'register',
    options.name === undefined ? {} : { name: options.name },
  );
  if (ended(outcome)) return outcome;
  if (!outcome.ok) return { ok: false, status: outcome.status, error: kit.errorCode(outcome) };
  return { ok: true, status: outcome.status, data: outcome.data as AddedPasskey };
}
