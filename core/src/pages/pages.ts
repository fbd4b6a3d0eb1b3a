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
import { pageErrorMessage } from './messages.js';
import type { CoreTranslator } from '../i18n/core/index.js';
import { messageFor } from '../i18n/catalog.js';

export interface SignInPageInput {
  /** The page's strings in the request's language. */
  t: CoreTranslator;
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

export function signInPage(input: SignInPageInput): string {
  const { t, basePath, providers, csrfToken, callbackUrl, error, links = [] } = input;
  const alert = error ? `<p class="error" role="alert">${escapeHtml(pageErrorMessage(t, error))}</p>` : '';
  const lastUsed = `<p class="last-used"><strong>${escapeHtml(t('signIn.lastUsed'))}</strong></p>`;
  const mark = (key: string, form: string) => (form && input.lastUsed === key ? `${lastUsed}${form}` : form);
  const forms = providers.map((p) => mark(providerKey(p), providerForm(p)));
  for (const m of input.methods ?? [])
    if (m.signInForm) forms.push(mark(m.type, m.signInForm({ basePath, csrfToken, callbackUrl, locale: t.locale })));
  const extra = links.map((l) => `<a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a>`);
  const footer = extra.length > 0 ? `<p class="links">${extra.join(' · ')}</p>` : '';
  const title = t('signIn.title');
  return layout(title, `<h1>${escapeHtml(title)}</h1>${alert}${forms.filter(Boolean).join('<hr>')}${footer}`, t.lang);

  function providerForm(p: Provider): string {
    if (p.type === 'credentials') {
      const ids = p.messageIds;
      const fields = Object.entries(p.credentials)
        .map(([name, f]) => {
          const id = `${p.id}-${name}`;
          const label = messageFor(t.locale, ids?.labels?.[name], f.label);
          const autocomplete = f.type === 'password' ? 'current-password' : f.type === 'email' ? 'email' : 'username';
          return `<label for="${escapeHtml(id)}">${escapeHtml(label)}</label><input id="${escapeHtml(id)}" name="${escapeHtml(name)}" type="${f.type}" autocomplete="${autocomplete}"${f.placeholder ? ` placeholder="${escapeHtml(f.placeholder)}"` : ''}${f.required ? ' required' : ''}>`;
        })
        .join('');
      const provider = messageFor(t.locale, ids?.name, p.name);
      return `<form method="post" action="${escapeHtml(`${basePath}/callback/${p.id}`)}">${hidden('csrfToken', csrfToken)}${hidden('callbackUrl', callbackUrl)}${fields}<button type="submit">${escapeHtml(t('signIn.withProvider', { provider }))}</button></form>`;
    }
    if (p.type === 'email') {
      const id = `${p.id}-address`;
      return `<form method="post" action="${escapeHtml(`${basePath}/signin/${p.id}`)}">${hidden('csrfToken', csrfToken)}${hidden('callbackUrl', callbackUrl)}<label for="${escapeHtml(id)}">${escapeHtml(t('common.email'))}</label><input id="${escapeHtml(id)}" name="email" type="email" autocomplete="email" required><button type="submit">${escapeHtml(t('signIn.withProvider', { provider: p.name }))}</button></form>`;
    }
    return `<form method="post" action="${escapeHtml(`${basePath}/signin/${p.id}`)}">${hidden('csrfToken', csrfToken)}${hidden('callbackUrl', callbackUrl)}<button type="submit">${escapeHtml(t('signIn.withProvider', { provider: p.name }))}</button></form>`;
  }
}

export function signOutPage(input: {
  t: CoreTranslator;
  basePath: string;
  csrfToken: string;
  callbackUrl: string;
}): string {
  const { t } = input;
  return layout(
    t('signOut.title'),
    `<h1>${escapeHtml(t('signOut.title'))}</h1><p>${escapeHtml(t('signOut.question'))}</p><form method="post" action="${escapeHtml(`${input.basePath}/signout`)}">${hidden('csrfToken', input.csrfToken)}${hidden('callbackUrl', input.callbackUrl)}<button type="submit">${escapeHtml(t('signOut.button'))}</button></form>`,
    t.lang,
  );
}

/**
 * The error page. `NotFound` (no such page) says so, with a link home; a 403 (a signed-in user without the role or
 * permission) says so, and offers signing in with another account; every other status is a sign-in problem.
 */
export function errorPage(input: {
  t: CoreTranslator;
  code: string | null;
  signInUrl: string;
  detail?: string;
  status?: number;
}): string {
  const { t } = input;
  const alert = `<p class="error" role="alert">${escapeHtml(pageErrorMessage(t, input.code))}</p>`;
  if (input.code === 'NotFound')
    return layout(
      t('errorPage.notFoundHeading'),
      `<h1>${escapeHtml(t('errorPage.notFoundHeading'))}</h1>${alert}<p><a href="/">${escapeHtml(t('errorPage.home'))}</a></p>`,
      t.lang,
    );
  const detail = input.detail ? `<p>${escapeHtml(input.detail)}</p>` : '';
  const forbidden = input.status === 403;
  const heading = t(forbidden ? 'errorPage.forbiddenHeading' : 'errorPage.heading');
  const link = t(forbidden ? 'errorPage.signInAnother' : 'common.backToSignIn');
  return layout(
    t(forbidden ? 'errorPage.forbiddenTitle' : 'errorPage.title'),
    `<h1>${escapeHtml(heading)}</h1>${alert}${detail}<p><a href="${escapeHtml(input.signInUrl)}">${escapeHtml(link)}</a></p>`,
    t.lang,
  );
}

export function verifyRequestPage(t: CoreTranslator): string {
  return layout(
    t('verifyRequest.title'),
    `<h1>${escapeHtml(t('verifyRequest.title'))}</h1><p>${escapeHtml(t('verifyRequest.text'))}</p>`,
    t.lang,
  );
}
