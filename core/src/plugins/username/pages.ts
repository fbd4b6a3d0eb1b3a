/**
 * The default no-JS parts of `username()`: the sign-in page's form and the page that sets the username.
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout, type PageLocale } from '../../plugin-kit.js';
import { usernameMessages } from './messages.js';

const alert = (error: string | null | undefined) =>
  error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';

/** The sign-in page's form: username and password, posted to `/username/sign-in`. */
export function signInForm(p: {
  basePath: string;
  csrfToken: string;
  callbackUrl: string;
  locale?: PageLocale;
}): string {
  const t = usernameMessages.for(p.locale);
  return (
    `<form method="post" action="${escapeHtml(`${p.basePath}/username/sign-in`)}">` +
    `${hidden('csrfToken', p.csrfToken)}${hidden('callbackUrl', p.callbackUrl)}` +
    `<label for="un-username">${escapeHtml(t('username.username'))}</label><input id="un-username" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" required>` +
    `<label for="un-password">${escapeHtml(t('username.password'))}</label><input id="un-password" name="password" type="password" autocomplete="current-password" required>` +
    `<button type="submit">${escapeHtml(t('username.signIn'))}</button></form>`
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
  /** The page's language (English without). */
  locale?: PageLocale | undefined;
}

/** `GET /username/update`: the signed-in user's username and the form that changes it. */
export function settingsPage(p: SettingsPageInput): string {
  const t = usernameMessages.for(p.locale);
  const now = p.current
    ? `<p>${t.html('username.current', { username: p.current }, ['username'])}</p>`
    : `<p>${escapeHtml(t('username.none'))}</p>`;
  const saved = p.saved ? `<p role="status">${escapeHtml(t('username.saved'))}</p>` : '';
  const title = t('username.title');
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>${now}${saved}${alert(p.error)}` +
      `<form method="post" action="${escapeHtml(`${p.basePath}/username/update`)}">${hidden('csrfToken', p.csrfToken)}` +
      `<label for="un-new">${escapeHtml(t('username.new'))}</label><input id="un-new" name="username" type="text" autocomplete="username" autocapitalize="none" spellcheck="false" minlength="${p.minLength}" maxlength="${p.maxLength}" required>` +
      `<p>${escapeHtml(t('username.rules', { min: p.minLength, max: p.maxLength }))}</p>` +
      `<button type="submit">${escapeHtml(t('username.save'))}</button></form>`,
    t.lang,
  );
}
