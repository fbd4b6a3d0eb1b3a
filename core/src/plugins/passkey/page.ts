/**
 * The passkey management page: the user's passkeys (name, creation date,
 * delete) and "Add a passkey".
 * @internal
 * @module
 */
import { escapeHtml, hidden, layout } from '../../pages/html.js';
import { passkeyScript } from './assets.js';
import { passkeyMessages, passkeyStatus } from './messages.js';
import type { PageLocale } from '../../i18n/options.js';

export interface PasskeyListItem {
  id: string;
  name: string | null;
  createdAt: Date;
}

/** When a passkey was added, in the page's language (UTC, as the `datetime` attribute). */
function addedOn(date: Date, lang: string): string {
  return (
    new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date) + ' UTC'
  );
}

/** The passkey management page: the user's passkeys (name, creation date, delete) and "Add a passkey". */
export function passkeysPage(input: {
  basePath: string;
  csrfToken: string;
  passkeys: PasskeyListItem[];
  /** The page's language (English without). */
  locale?: PageLocale | undefined;
}): string {
  const t = passkeyMessages.for(input.locale);
  const rows = input.passkeys
    .map((p) => {
      const name = p.name ?? t('passkey.unnamed');
      return `<li><strong>${escapeHtml(name)}</strong>, ${escapeHtml(t('passkey.added'))} <time datetime="${escapeHtml(p.createdAt.toISOString())}">${escapeHtml(addedOn(p.createdAt, t.lang))}</time><form method="post" action="${escapeHtml(`${input.basePath}/passkey/delete`)}">${hidden('csrfToken', input.csrfToken)}${hidden('credentialId', p.id)}<button type="submit" aria-label="${escapeHtml(t('passkey.deleteNamed', { name }))}">${escapeHtml(t('passkey.delete'))}</button></form></li>`;
    })
    .join('');
  const list = rows
    ? `<ul id="passkey-list">${rows}</ul>`
    : `<p id="passkey-list">${escapeHtml(t('passkey.none'))}</p>`;
  return layout(
    t('passkey.title'),
    `<h1>${escapeHtml(t('passkey.heading'))}</h1>${list}<hr><label for="passkey-name">${escapeHtml(t('passkey.newName'))}</label><input id="passkey-name" value="${escapeHtml(t('passkey.defaultName'))}" maxlength="100"><button type="button" data-passkey="register">${escapeHtml(t('passkey.add'))}</button><p id="passkey-status" role="status"></p>${passkeyScript(input.basePath, input.csrfToken, '/', passkeyStatus(t))}`,
    t.lang,
  );
}
