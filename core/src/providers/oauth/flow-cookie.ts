/**
 * The OAuth flow cookie: state, PKCE verifier, nonce and callbackUrl kept in
 * the browser between the redirect and the callback (so a callback without
 * the browser's cookie fails, RFC 9700 §4.7 login CSRF). It is sealed
 * (`http/sealed.ts`: confidential, tamper-proof) and expires after 10 minutes.
 * @internal
 * @module
 */
import type { AuthClock } from '../../clock.js';
import type { OutCookie } from '../../http/cookies.js';
import { expiredCookie } from '../../http/cookies.js';
import { seal, unseal } from '../../http/sealed.js';

/** Lifetime of a flow cookie, in seconds. */
export const FLOW_MAX_AGE = 600;
const PURPOSE = 'oauth-flow';

export interface FlowData {
  provider: string;
  state: string;
  codeVerifier: string;
  nonce?: string;
  callbackUrl: string;
}

/** Cookie name of a provider's flow. */
export function flowCookieName(providerId: string, secure: boolean): string {
  return `${secure ? '__Secure-' : ''}framework.oauth.${providerId}`;
}

export interface FlowCookieOptions {
  secure: boolean;
  /** `none` for form_post providers (the callback is a cross-site POST), which needs `secure`. */
  sameSite: 'lax' | 'none';
  path: string;
}

export async function sealFlow(
  data: FlowData,
  secret: string,
  options: FlowCookieOptions,
  clock: AuthClock,
): Promise<OutCookie> {
  const value = await seal({ ...data }, secret, PURPOSE, FLOW_MAX_AGE, clock);
  return {
    name: flowCookieName(data.provider, options.secure),
    value,
    options: {
      httpOnly: true,
      secure: options.secure,
      sameSite: options.sameSite,
      path: options.path,
      maxAge: FLOW_MAX_AGE,
    },
  };
}

/** Opens a flow cookie; null when missing, tampered, expired or for another provider. */
export async function openFlow(
  value: string | undefined,
  providerId: string,
  secret: string,
  clock: AuthClock,
): Promise<FlowData | null> {
  const p = (await unseal(value, secret, PURPOSE, clock)) as Partial<FlowData> | null;
  if (
    !p ||
    p.provider !== providerId ||
    typeof p.state !== 'string' ||
    typeof p.codeVerifier !== 'string' ||
    typeof p.callbackUrl !== 'string'
  )
    return null;
  return {
    provider: p.provider,
    state: p.state,
    codeVerifier: p.codeVerifier,
    callbackUrl: p.callbackUrl,
    ...(typeof p.nonce === 'string' ? { nonce: p.nonce } : {}),
  };
}

export function clearFlow(providerId: string, options: FlowCookieOptions): OutCookie {
  return expiredCookie(flowCookieName(providerId, options.secure), {
    httpOnly: true,
    secure: options.secure,
    sameSite: options.sameSite,
    path: options.path,
  });
}
