/**
 * What the Express example shares with the Hono one: the pages (imported from
 * examples/hono/src/views.ts, not copied), the auth set-up, the registration
 * flow over Web Requests, the admin role and its seed. Nothing here knows
 * about a web framework.
 */
import { AuthError, ForbiddenError, type AdapterUser, type Auth, type User } from '@framework/auth';
import type { ExampleAuth } from '../../hono/src/example-auth.js';
import { homePage, protectedPage, registerPage } from '../../hono/src/views.js';

export { homePage, protectedPage, registerPage };
export { createExampleRuntime } from '../../hono/src/triggers.js';
export { createMailer, type Mailer } from '../../hono/src/mailer.js';

export { createExampleAuth, type ExampleAuth, type ExampleAuthOptions } from '../../hono/src/example-auth.js';

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

/** The role that may see the admin page. */
export const ADMIN_ROLE = 'admin';

/**
 * Throws `ForbiddenError` (403) unless the user has the admin role. (Stands
 * in for `requireRole` until RBAC lands in the core.)
 */
export function requireAdmin(user: User): User {
  if (user.role === ADMIN_ROLE || user.roles?.includes(ADMIN_ROLE)) return user;
  throw new ForbiddenError('Only admins may see this page', { requiredRole: ADMIN_ROLE });
}

/** Creates the admin account when missing (or gives an existing account the admin role). */
export async function seedAdmin(example: ExampleAuth, admin: { email: string; password: string; name?: string }): Promise<void> {
  const existing = await example.adapter.getUserByEmail(admin.email);
  const user = existing ?? (await example.passwords.register({ email: admin.email, password: admin.password, name: admin.name ?? 'Admin' }));
  if (user.role !== ADMIN_ROLE) await example.adapter.updateUser(user.id, { role: ADMIN_ROLE });
}

/** The admin page. Reuses the protected page's layout and swaps in its own heading. */
export function adminPage(user: User): string {
  return protectedPage(user)
    .replace('<title>Protected</title>', '<title>Admin</title>')
    .replace('<h1>Protected page</h1>', `<h1>Admin</h1><p>Role: <strong id="role">${ADMIN_ROLE}</strong></p>`);
}

