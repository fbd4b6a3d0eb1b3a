/**
 * The default server-rendered pages: sign-in, sign-out, error and
 * verify-request. Plain HTML forms that work without JavaScript, with the
 * CSRF token embedded and labelled inputs.
 * @internal
 * @module
 */
import type { Provider } from '../providers/types.js';
import { escapeHtml, hidden, layout } from './html.js';
import { messageFor } from './messages.js';
import { passkeyScript } from '../routes/passkey-assets.js';

export interface SignInPageInput {
  basePath: string;
  providers: readonly Provider[];
  csrfToken: string;
  callbackUrl: string;
  error?: string | null;
}

export function signInPage({ basePath, providers, csrfToken, callbackUrl, error }: SignInPageInput): string {
  const alert = error ? `<p class="error" role="alert">${escapeHtml(messageFor(error))}</p>` : '';
  const forms = providers.map((p) => {
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
    if (p.type === 'passkey') {
      return `<button type="button" data-passkey="authenticate">Sign in with a passkey</button><p id="passkey-status" role="status"></p>${passkeyScript(basePath, csrfToken, callbackUrl)}`;
    }
    return `<form method="post" action="${escapeHtml(`${basePath}/signin/${p.id}`)}">${hidden('csrfToken', csrfToken)}${hidden('callbackUrl', callbackUrl)}<button type="submit">Sign in with ${escapeHtml(p.name)}</button></form>`;
  });
  return layout('Sign in', `<h1>Sign in</h1>${alert}${forms.filter(Boolean).join('<hr>')}`);
}

export function signOutPage(input: { basePath: string; csrfToken: string; callbackUrl: string }): string {
  return layout(
    'Sign out',
    `<h1>Sign out</h1><p>Are you sure you want to sign out?</p><form method="post" action="${escapeHtml(`${input.basePath}/signout`)}">${hidden('csrfToken', input.csrfToken)}${hidden('callbackUrl', input.callbackUrl)}<button type="submit">Sign out</button></form>`,
  );
}

export function errorPage(input: { code: string | null; signInUrl: string; detail?: string }): string {
  const detail = input.detail ? `<p>${escapeHtml(input.detail)}</p>` : '';
  return layout(
    'Error',
    `<h1>Sign-in problem</h1><p class="error" role="alert">${escapeHtml(messageFor(input.code))}</p>${detail}<p><a href="${escapeHtml(input.signInUrl)}">Back to sign in</a></p>`,
  );
}

export interface PasskeyListItem {
  id: string;
  name: string | null;
  createdAt: Date;
}

/** The passkey management page: the user's passkeys (name, creation date, delete) and "Add a passkey". */
export function passkeysPage(input: { basePath: string; csrfToken: string; passkeys: PasskeyListItem[] }): string {
  const rows = input.passkeys
    .map(
      (p) =>
        `<li><strong>${escapeHtml(p.name ?? 'Passkey')}</strong>, added <time datetime="${escapeHtml(p.createdAt.toISOString())}">${escapeHtml(p.createdAt.toUTCString())}</time><form method="post" action="${escapeHtml(`${input.basePath}/passkey/delete`)}">${hidden('csrfToken', input.csrfToken)}${hidden('credentialId', p.id)}<button type="submit" aria-label="Delete ${escapeHtml(p.name ?? 'passkey')}">Delete</button></form></li>`,
    )
    .join('');
  const list = rows ? `<ul id="passkey-list">${rows}</ul>` : '<p id="passkey-list">You have no passkeys yet.</p>';
  return layout(
    'Passkeys',
    `<h1>Your passkeys</h1>${list}<hr><label for="passkey-name">Name for a new passkey</label><input id="passkey-name" value="My passkey" maxlength="100"><button type="button" data-passkey="register">Add a passkey</button><p id="passkey-status" role="status"></p>${passkeyScript(input.basePath, input.csrfToken, '/')}`,
  );
}

export function verifyRequestPage(): string {
  return layout('Check your email', '<h1>Check your email</h1><p>A sign-in link has been sent to your email address.</p>');
}
