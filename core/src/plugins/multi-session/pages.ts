/**
 * The default no-JS page of `multiSession()`: the accounts signed in on this browser, each with Switch and Sign out
 * buttons, and a link to add another account.
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout, type PageLocale } from '../../plugin-kit.js';
import type { DeviceSessionInfo } from './info.js';
import { multiSessionMessages } from './messages.js';

/** What the page shows. */
export interface AccountsPageInput {
  basePath: string;
  csrfToken: string;
  /** The sign-in page, with a `callbackUrl` back here. */
  addAccountUrl: string;
  sessions: readonly DeviceSessionInfo[];
  /** The request's locale (`pageLocale(ctx)`); English without one. */
  locale?: PageLocale | undefined;
}

const button = (p: AccountsPageInput, action: string, sessionId: string, label: string) =>
  `<form method="post" action="${escapeHtml(`${p.basePath}/multi-session/${action}`)}">` +
  `${hidden('csrfToken', p.csrfToken)}${hidden('sessionId', sessionId)}<button type="submit">${escapeHtml(label)}</button></form>`;

/** `GET {basePath}/multi-session`, in the page's language (names and addresses stay as the accounts have them). */
export function accountsPage(p: AccountsPageInput): string {
  const t = multiSessionMessages.for(p.locale);
  const rows = p.sessions
    .map((s) => {
      const who = s.user.name ?? s.user.email ?? s.user.id;
      const email = s.user.email && s.user.name ? ` <small>${escapeHtml(s.user.email)}</small>` : '';
      const current = s.active ? ` <strong>${escapeHtml(t('multiSession.current'))}</strong>` : '';
      const switchTo = s.active ? '' : button(p, 'set-active', s.sessionId, t('multiSession.switchTo', { name: who }));
      const signOut = button(p, 'revoke', s.sessionId, t('multiSession.signOut', { name: who }));
      return `<li><span>${escapeHtml(who)}</span>${email}${current}${switchTo}${signOut}</li>`;
    })
    .join('');
  return layout(
    t('multiSession.title'),
    `<h1>${escapeHtml(t('multiSession.heading'))}</h1><ul>${rows}</ul>` +
      `<p><a href="${escapeHtml(p.addAccountUrl)}">${escapeHtml(t('multiSession.add'))}</a></p>`,
    t.lang,
  );
}
