/**
 * `createSignedInSession`: the cookies of a signed-in browser, made without the sign-in UI, from the app's auth in
 * this process or through its `testSignInRoute()`; then the organization and the second factor the test asks for,
 * through the kit's own routes.
 * @module
 */
import { totpCodeOfUri } from '../two-factor/totp-code.js';
import { createStepJar, type StepJar } from './browser-cookies.js';
import { ensureUser } from './ensure-user.js';
import { TEST_SIGN_IN_HEADER, TEST_SIGN_IN_PATH } from './route.js';
import type { SignInOptions, SignInResult, SignInTarget } from './types.js';

/** Sends one request: `auth.handler` in process, `fetch` to another process. */
type Send = (request: Request) => Promise<Response>;

interface Steps {
  send: Send;
  jar: StepJar;
  origin: string;
  basePath: string;
  /** The time of the codes (ms): the auth's clock when the target is an auth instance, else the real time. */
  now: () => number;
}

async function call(steps: Steps, path: string, init: RequestInit = {}): Promise<Response> {
  const url = `${steps.origin}${steps.basePath}/${path}`;
  const headers = new Headers(init.headers);
  headers.set('accept', 'application/json');
  const cookie = await steps.jar.header(url);
  if (cookie) headers.set('cookie', cookie);
  const response = await steps.send(new Request(url, { ...init, headers, redirect: 'manual' }));
  await steps.jar.store(url, response);
  return response;
}

/** A CSRF-checked JSON POST to a kit route, as the app's own page would send it. */
async function post(steps: Steps, path: string, body: Record<string, string>): Promise<Response> {
  const { csrfToken } = (await (await call(steps, 'csrf')).json()) as { csrfToken: string };
  return call(steps, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: steps.origin, 'x-csrf-token': csrfToken },
    body: JSON.stringify(body),
  });
}

async function failure(what: string, response: Response): Promise<Error> {
  const text = await response.text();
  let code = '';
  try {
    code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? '';
  } catch {
    // not JSON
  }
  return new Error(`signIn: ${what} answered ${response.status}${code ? ` ${code}` : ''}`);
}

async function activeOrganization(steps: Steps, wanted: { name: string; slug?: string }): Promise<void> {
  const list = await call(steps, 'org/list');
  if (!list.ok) throw await failure('GET org/list (is the organizations() plugin on?)', list);
  const { organizations } = (await list.json()) as { organizations: { id: string; name: string; slug: string }[] };
  const found = organizations.find((o) => (wanted.slug ? o.slug === wanted.slug : o.name === wanted.name));
  const response = found
    ? await post(steps, 'org/set-active', { organizationId: found.id })
    : await post(steps, 'org/create', { name: wanted.name, ...(wanted.slug ? { slug: wanted.slug } : {}) });
  if (!response.ok) throw await failure(found ? 'org/set-active' : 'org/create', response);
}

async function enrolTwoFactor(steps: Steps): Promise<string | undefined> {
  const enable = await post(steps, 'two-factor/enable', {});
  if (enable.status === 409) return undefined; // enrolled before: the session counts as past the second factor
  if (!enable.ok) throw await failure('two-factor/enable (is the twoFactor() plugin on?)', enable);
  const { totpURI } = (await enable.json()) as { totpURI: string };
  const confirm = await post(steps, 'two-factor/confirm', { code: totpCodeOfUri(totpURI, steps.now()) });
  if (!confirm.ok) throw await failure('two-factor/confirm', confirm);
  return totpURI;
}

async function firstSession(target: SignInTarget, steps: Steps, options: SignInOptions) {
  if ('auth' in target) {
    const adapter = target.auth.adapter;
    if (!adapter) throw new Error('signIn: the auth has no `adapter` (users must be stored to sign in as one)');
    const user = await ensureUser(adapter, options);
    const { headers } = await target.auth.createSession(user);
    await steps.jar.store(`${steps.origin}/`, new Response(null, { headers }));
    return { id: user.id, email: user.email ?? options.as };
  }
  const response = await call(steps, TEST_SIGN_IN_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [TEST_SIGN_IN_HEADER]: target.secret },
    body: JSON.stringify({
      as: options.as,
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.roles === undefined ? {} : { roles: options.roles.join(',') }),
    }),
  });
  if (response.status === 404)
    throw new Error(
      `signIn: ${steps.basePath}/${TEST_SIGN_IN_PATH} answered 404: add testSignInRoute({ secret }) to the app's ` +
        'createAuth plugins, and give the fixture the same secret',
    );
  if (!response.ok) throw await failure(TEST_SIGN_IN_PATH, response);
  return ((await response.json()) as { user: { id: string; email: string } }).user;
}

/**
 * Signs a user in without the sign-in UI and returns the browser cookies of that session (plus the active
 * organization's), ready for `context.addCookies(result.cookies)` or a storage state. The user is found or
 * created by email (see {@link SignInOptions}); the session is a real one, as `auth.createSession` issues it.
 *
 * @throws Error naming the route and the error code when a step fails (no `adapter`, no `testSignInRoute()` in
 * the app, a plugin missing for `organization` or `twoFactor`, a reused user whose email is unverified for
 * `twoFactor`: `EMAIL_NOT_VERIFIED`).
 * @example
 * ```ts
 * const { cookies } = await createSignedInSession({ auth, baseURL: server.url }, { as: 'ada@example.com' });
 * await browserContext.addCookies(cookies);
 * ```
 */
export async function createSignedInSession(target: SignInTarget, options: SignInOptions): Promise<SignInResult> {
  const origin = new URL(target.baseURL).origin;
  const basePath = 'auth' in target ? target.auth.config.basePath : (target.basePath ?? '/auth');
  const send: Send = 'auth' in target ? (request) => target.auth.handler(request) : (request) => fetch(request);
  const clock = 'auth' in target ? target.auth.clock : undefined;
  const now = clock ? () => clock.now() : () => Date.now();
  const steps: Steps = { send, jar: createStepJar(), origin, basePath, now };
  const user = await firstSession(target, steps, options);
  const { organization } = options;
  if (organization !== undefined)
    await activeOrganization(steps, typeof organization === 'string' ? { name: organization } : organization);
  const totpURI = options.twoFactor ? await enrolTwoFactor(steps) : undefined;
  const cookies = await steps.jar.browserCookies(`${origin}/`);
  return {
    user,
    cookies,
    cookieHeader: cookies.map((c) => `${c.name}=${c.value}`).join('; '),
    ...(totpURI === undefined ? {} : { totpURI }),
  };
}
