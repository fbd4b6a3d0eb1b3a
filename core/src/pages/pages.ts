/**
 * The default server-rendered pages: sign-in, sign-out, error and
 * verify-request. Plain HTML forms that work without JavaScript, with the
 * CSRF token embedded and labelled inputs.
 * @internal
 * @module
 */
import type { Provider } from '../providers/types.js';
import type { SignInMethod } from '../contract/types.js';
import { escapeHtml, hidden, layout } from './html.js';
import { messageFor } from './messages.js';

export interface SignInPageInput {
  basePath: string;
  providers: readonly Provider[];
  csrfToken: string;
  callbackUrl: string;
  error?: string | null;
  /** The plugins' sign-in methods, after the providers. */
  methods?: readonly SignInMethod[];
  /** Links under the forms ("Create an account", "Forgot password?"), when those routes are on. */
  links?: readonly { label: string; href: string }[];
  /**
   * The key of the method this browser used last (`credentials`, `magic-link`, `oauth:<id>`, a method's `type`):
   * that method's form is marked "Last used". Compared with the keys of what is on the page, never shown itself.
   */
  lastUsed?: string | undefined;
}

/** The key a provider's form is marked by (see `lastUsed`). */
function providerKey(p: Provider): string {
  if (p.type === 'credentials') return 'credentials';
  if (p.type === 'email') return 'magic-link';
  return `oauth:${p.id}`;
}

const LAST_USED = '<p class="last-used"><strong>Last used</strong></p>';

export function signInPage(input: SignInPageInput): string {
  const { basePath, providers, csrfToken, callbackUrl, error, links = [] } = input;
  const alert = error ? `<p class="error" role="alert">${escapeHtml(messageFor(error))}</p>` : '';
  const mark = (key: string, form: string) => (form && input.lastUsed === key ? `${LAST_USED}${form}` : form);
  const forms = providers.map((p) => mark(providerKey(p), providerForm(p)));
  for (const m of input.methods ?? [])
    if (m.signInForm) forms.push(mark(m.type, m.signInForm({ basePath, csrfToken, callbackUrl })));
  const extra = links.map((l) => `<a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a>`);
  const footer = extra.length > 0 ? `<p class="links">${extra.join(' · ')}</p>` : '';
  return layout('Sign in', `<h1>Sign in</h1>${alert}${forms.filter(Boolean).join('<hr>')}${footer}`);

  function providerForm(p: Provider): string {
    if (p.type === 'credentials') {
      const fields = Object.entries(p.credentials)
        .map(([name, f]) => {
          const id = `${p.id}-${name}`;
          const autocomplete = f.type === 'password' ? 'current-password' : f.type === 'email' ? 'email' : 'username';
          return `<label for="${escapeHtml(id)}">${escapeHtml(f.label)}</label><input id="${escapeHtml(id)}" name="${escapeHtml(name)}" type="${f.type}" autocomplete="${autocomplete}"${f.placeholder ? ` placeholder="${escapeHtml(f.placeholder)}"` : ''}${f.required ? ' required' : ''}>`;
        })
        .join('');
      return `<form method="post" action="${escapeHtml(`${basePath}/callback/${p.id}`)}">${hidden('csrfToken', csrfToken)}${hidden('callbackUrl', callbackUrl)}${fields}<button type="submit">Sign in with ${escapeHtml(p.name)}</button></form>`;
    }
    if (p.type === 'email') {
      const id = `${p.id}-address`;
      return `<form method="post" action="${escapeHtml(`${basePath}/signin/${p.id}`)}">${hidden('csrfToken', csrfToken)}${hidden('callbackUrl', callbackUrl)}<label for="${escapeHtml(id)}">Email</label><input id="${escapeHtml(id)}" name="email" type="email" autocomplete="email" required><button type="submit">Sign in with ${escapeHtml(p.name)}</button></form>`;
    }
    return `<form method="post" action="${escapeHtml(`${basePath}/signin/${p.id}`)}">${hidden('csrfToken', csrfToken)}${hidden('callbackUrl', callbackUrl)}<button type="submit">Sign in with ${escapeHtml(p.name)}</button></form>`;
  }
}

export function signOutPage(input: { basePath: string; csrfToken: string; callbackUrl: string }): string {
  return layout(
    'Sign out',
    `<h1>Sign out</h1><p>Are you sure you want to sign out?</p><form method="post" action="${escapeHtml(`${input.basePath}/signout`)}">${hidden('csrfToken', input.csrfToken)}${hidden('callbackUrl', input.callbackUrl)}<button type="submit">Sign out</button></form>`,
  );
}

/**
 * The error page. `NotFound` (no such page) says so, with a link home; a 403 (a signed-in user without the role or
 * permission) says so, and offers signing in with another account; every other status is a sign-in problem.
 */
export function errorPage(input: { code: string | null; signInUrl: string; detail?: string; status?: number }): string {
  if (input.code === 'NotFound')
    return layout(
      'Page not found',
      `<h1>Page not found</h1><p class="error" role="alert">${escapeHtml(messageFor(input.code))}</p><p><a href="/">Go to the home page</a></p>`,
    );
  const detail = input.detail ? `<p>${escapeHtml(input.detail)}</p>` : '';
  const forbidden = input.status === 403;
  const title = forbidden ? "You don't have access" : 'Sign-in problem';
  const link = forbidden ? 'Sign in with another account' : 'Back to sign in';
  return layout(
    forbidden ? 'No access' : 'Error',
    `<h1>${escapeHtml(title)}</h1><p class="error" role="alert">${escapeHtml(messageFor(input.code))}</p>${detail}<p><a href="${escapeHtml(input.signInUrl)}">${link}</a></p>`,
  );
}

export function verifyRequestPage(): string {
  return layout(
    'Check your email',
    '<h1>Check your email</h1><p>A sign-in link has been sent to your email address.</p>',
  );
}
