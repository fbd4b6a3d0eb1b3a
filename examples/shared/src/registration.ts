/**
 * The registration page as framework-free functions over Web Requests: the
 * form with its CSRF token, and the flow that creates the account. The
 * Express example and ./web-example.ts (SvelteKit, React Router) turn the
 * answers into their framework's responses.
 */
import { AuthError, readFormBody, type AdapterUser, type Auth } from '@framework/auth';
import type { ExampleAuth } from './example-auth.js';
import { registerPage } from './views.js';

/** A page answer: status, HTML or a redirect, and headers (Set-Cookie) to send. */
export interface PageResult {
  status: number;
  html?: string;
  redirect?: string;
  headers: Headers;
}

/** `GET /register`: the form with a CSRF token (and the cookie that backs it). */
export async function registrationForm(auth: Auth, request: Request): Promise<PageResult> {
  const { token, headers } = await auth.csrf.issue(request);
  return { status: 200, html: registerPage(token), headers };
}

/**
 * `POST /register`: checks CSRF, then the registration limit (per client IP
 * and per address, {@link ExampleAuth.registrationLimiter}), creates the
 * account, runs `onRegistered` (the examples queue a welcome mail), then
 * sends the person to the sign-in page (303). Failures render the form
 * again with the message and the error's status (400, 403, 409, 429).
 * `info.ip` is the client's socket address, as the adapter knows it.
 */
export async function registration(
  example: ExampleAuth,
  request: Request,
  form: Record<string, unknown>,
  onRegistered: (user: AdapterUser) => Promise<unknown> = async () => {},
  info: { ip?: string | undefined } = {},
): Promise<PageResult> {
  const field = (k: string) => (typeof form[k] === 'string' ? (form[k] as string) : '');
  const values = { email: field('email'), name: field('name') };
  try {
    await example.auth.csrf.verify(request, field('csrfToken'));
    const verdict = await example.registrationLimiter.check(request, { ...(info.ip ? { ip: info.ip } : {}), identifier: values.email });
    if (!verdict.success) throw new AuthError('Too many sign-ups; try again later', { code: 'RATE_LIMITED', status: verdict.response?.status ?? 429 });
    const user = await example.passwords.register({ email: values.email, password: field('password'), name: values.name });
    await onRegistered(user);
  } catch (e) {
    if (!(e instanceof AuthError)) throw e;
    const { token, headers } = await example.auth.csrf.issue(request);
    const message = e.code.startsWith('CSRF_') ? 'Your form expired. Please try again.' : e.message;
    return { status: e.status, html: registerPage(token, message, values), headers };
  }
  return { status: 303, redirect: `${example.auth.config.basePath}/signin?callbackUrl=%2F`, headers: new Headers() };
}

/** The largest registration form the examples read: 16 KiB. */
export const MAX_FORM_BYTES = 16 * 1024;

/**
 * Reads the registration form through the kit's streaming body limiter
 * (`readFormBody`, {@link MAX_FORM_BYTES}): a chunked body is refused as soon
 * as it passes the limit, whatever `Content-Length` says. Returns the fields,
 * or a plain-text refusal `Response` (413, 400, 415).
 */
export async function readRegistrationForm(request: Request): Promise<Record<string, string> | Response> {
  try {
    return await readFormBody(request, MAX_FORM_BYTES);
  } catch (e) {
    if (e instanceof AuthError) return new Response(e.message, { status: e.status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    throw e;
  }
}
