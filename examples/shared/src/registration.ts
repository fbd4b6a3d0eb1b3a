/**
 * The registration page as framework-free functions over Web Requests: the
 * form with its CSRF token, and the flow that creates the account. The
 * Express example and ./web-example.ts (SvelteKit, React Router) turn the
 * answers into their framework's responses.
 */
import { AuthError, type AdapterUser, type Auth } from '@framework/auth';
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
 * `POST /register`: checks CSRF, creates the account, runs `onRegistered`
 * (the examples queue a welcome mail), then sends the person to the sign-in
 * page (303). Failures render the form again with the message and the
 * error's status (400, 403, 409).
 */
export async function registration(
  example: ExampleAuth,
  request: Request,
  form: Record<string, unknown>,
  onRegistered: (user: AdapterUser) => Promise<unknown> = async () => {},
): Promise<PageResult> {
  const field = (k: string) => (typeof form[k] === 'string' ? (form[k] as string) : '');
  const values = { email: field('email'), name: field('name') };
  try {
    await example.auth.csrf.verify(request, field('csrfToken'));
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
