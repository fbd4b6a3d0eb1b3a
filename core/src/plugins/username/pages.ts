/**
 * The default no-JS parts of `username()`: the sign-in page's form and the page that sets the username.
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout } from '../../plugin-kit.js';

const alert = (error: string | null | undefined) =>
  error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';

/** The sign-in page's form: username and password, posted to `/username/sign-in`. */
export function signInForm(p: { basePath: string; csrfToken: string; callbackUrl: string }): string {
  return (
    `<form method="post" action="${escapeHtml(`${p.basePath}/username/sign-in`)}">` +
    `${hidden('csrfToken', p.csrfToken)}${hidden('callbackUrl', p.callbackUrl)}` +
    `<label for="un-username">Username</label><input id="un-username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required>` +
    `<label for="un-password">Password</label><input id="un-password" name="password" type="password" autocomplete="current-password" required>` +
    `<button type="submit">Sign in with username</button></form>`
  );
}

/** What the settings page shows. */
export interface SettingsPageInput {
  basePath: string;
  csrfToken: string;
  /** The name as the user typed it, if they have one. */
  current: string | null;
  minLength: number;
  maxLength: number;
  error?: string | undefined;
  saved?: boolean | undefined;
}

/** `GET /username/update`: the signed-in user's username and the form that changes it. */
export function settingsPage(p: SettingsPageInput): string {
  const now = p.current
    ? `<p>Your username is <strong>${escapeHtml(p.current)}</strong>.</p>`
    : '<p>You have no username yet.</p>';
  const saved = p.saved ? '<p role="status">Saved.</p>' : '';
  return layout(
    'Username',
    `<h1>Username</h1>${now}${saved}${alert(p.error)}` +
      `<form method="post" action="${escapeHtml(`${p.basePath}/username/update`)}">${hidden('csrfToken', p.csrfToken)}` +
      `<label for="un-new">New username</label><input id="un-new" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" minlength="${p.minLength}" maxlength="${p.maxLength}" required>` +
      `<p>${p.minLength}–${p.maxLength} characters: letters, digits, "_" and ".".</p>` +
      `<button type="submit">Save</button></form>`,
  );
}
