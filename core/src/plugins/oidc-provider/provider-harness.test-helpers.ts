/**
 * A test harness for `oidcProvider()`: the kit served by node:http on 127.0.0.1 port 0 (so the issuer is a real
 * URL other clients discover), and a browser with a cookie jar that signs in and answers the consent page.
 * @module
 * @internal
 */
import type { Auth, CreateAuthOptions } from '../../auth.js';
import type { AuthClock } from '../../clock.js';
import * as client from 'openid-client';
import { EMAIL, PASSWORD, makeFixture } from '../../testing/fixtures.js';
import { serve } from '../../testing/http-server.js';
import { jwt } from '../jwt/index.js';
import { oidcProvider, type OidcProviderOptions } from './index.js';

export const RP_SECRET = 'rp-secret-rp-secret-rp-secret-0123456789';
export const RP_REDIRECT = 'https://rp.example/callback';
export const PUBLIC_REDIRECT = 'http://127.0.0.1:8765/callback';
export const RP_LOGOUT = 'https://rp.example/signed-out';

/** A clock the test moves (`createAuth({ clock })`). */
export function movableClock(): AuthClock & { advance(ms: number): void } {
  let offset = 0;
  return { now: () => Date.now() + offset, advance: (ms) => void (offset += ms) };
}

/** Serves `auth` (set once created) on a fresh port; answers its base URL and a close function. */
async function listen(handler: () => Auth): Promise<{ base: string; close(): Promise<void> }> {
  const { base, server } = await serve({ handler: (request, options) => handler().handler(request, options) });
  return {
    base,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A browser: a cookie jar over `fetch`, redirects not followed. */
export class Browser {
  readonly cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(new URL(url, this.base), { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const [name, value] = [pair!.slice(0, eq), pair!.slice(eq + 1)];
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  async csrf(): Promise<string> {
    return ((await (await this.request('/auth/csrf')).json()) as { csrfToken: string }).csrfToken;
  }

  async signIn(email = EMAIL, password = PASSWORD): Promise<void> {
    const csrfToken = await this.csrf();
    const res = await this.request('/auth/callback/credentials', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', origin: this.base },
      body: JSON.stringify({ csrfToken, email, password }),
    });
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status}`);
  }

  /** Posts the first form of `html` with its hidden fields and `extra`. */
  async submit(html: string, extra: Record<string, string> = {}): Promise<Response> {
    const form = /<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/.exec(html);
    if (!form) throw new Error('no form on the page');
    const fields: Record<string, string> = {};
    for (const input of form[2]!.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
      fields[unescape(input[1]!)] = unescape(input[2]!);
    return this.request(unescape(form[1]!), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: this.base },
      body: new URLSearchParams({ ...fields, ...extra }).toString(),
    });
  }

  /** Opens an authorization URL and allows on the consent page when it shows: the redirect back to the client. */
  async authorize(url: URL | string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
    let res = await this.request(String(url), { headers: { accept: 'text/html' } });
    if (res.status === 200) res = await this.submit(await res.text(), { decision });
    if (res.status !== 303) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
    return new URL(res.headers.get('location')!);
  }
}

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The provider with a confidential client `rp` and a public client `cli`, served on port 0. */
export async function startProvider(overrides: Partial<CreateAuthOptions> = {}, options: OidcProviderOptions = {}) {
  const served: { auth?: Auth } = {};
  const server = await listen(() => served.auth!);
  const f = await makeFixture('database', {
    baseURL: server.base,
    rateLimit: { login: false },
    plugins: [
      jwt({ audience: 'https://api.example' }),
      oidcProvider({
        clients: [
          {
            clientId: 'rp',
            clientSecret: RP_SECRET,
            name: 'Relying Party',
            redirectUris: [RP_REDIRECT],
            postLogoutRedirectUris: [RP_LOGOUT],
          },
          { clientId: 'cli', name: 'Command line', redirectUris: [PUBLIC_REDIRECT] },
        ],
        ...options,
      }),
    ],
    ...overrides,
  });
  served.auth = f.auth;
  const issuer = `${server.base}/auth`;
  return { ...f, issuer, base: server.base, close: server.close, browser: () => new Browser(server.base) };
}

/** Runs the authorize step in a signed-in browser: the tokens and the checks used. */
export async function openidCodeFlow(
  op: { browser(): Browser },
  config: client.Configuration,
  scope = 'openid profile email offline_access',
): Promise<{
  tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;
  browser: Browser;
  back: URL;
}> {
  const verifier = client.randomPKCECodeVerifier();
  const nonce = client.randomNonce();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: RP_REDIRECT,
    scope,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    nonce,
    state,
  });
  const browser = op.browser();
  await browser.signIn();
  const back = await browser.authorize(url);
  const tokens = await client.authorizationCodeGrant(config, back, {
    pkceCodeVerifier: verifier,
    expectedNonce: nonce,
    expectedState: state,
    idTokenExpected: true,
  });
  return { tokens, browser, back };
}
