/**
 * The default no-JS page of `multiSession()`: the accounts signed in on this browser, each with Switch and Sign out
 * buttons, and a link to add another account.
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout } from '../../plugin-kit.js';
import type { DeviceSessionInfo } from './info.js';

/** What the page shows. */
export interface AccountsPageInput {
  basePath: string;
  csrfToken: string;
  /** The sign-in page, with a `callbackUrl` back here. */
  addAccountUrl: string;
  sessions: readonly DeviceSessionInfo[];
}

const button = (p: AccountsPageInput, action: string, sessionId: string, label: string) =>
  `<form method="post" action="${escapeHtml(`${p.basePath}/multi-session/${action}`)}">` +
  `${hidden('csrfToken', p.csrfToken)}${hidden('sessionId', sessionId)}<button type="submit">${escapeHtml(label)}</button></form>`;

/** `GET {basePath}/multi-session`. */
export function accountsPage(p: AccountsPageInput): string {
  const rows = p.sessions
    .map((s) => {
      const who = s.user.name ?? s.user.email ?? s.user.id;
      const email = s.user.email && s.user.name ? ` <small>${escapeHtml(s.user.email)}</small>` : '';
      const current = s.active ? ' <strong>(current)</strong>' : '';
      const switchTo = s.active ? '' : button(p, 'set-active', s.sessionId, `Switch to ${who}`);
      return `<li><span>${escapeHtml(who)}</span>${email}${current}${switchTo}${button(p, 'revoke', s.sessionId, `Sign out ${who}`)}</li>`;
    })
    .join('');
  return layout(
    'Accounts',
    `<h1>Accounts on this browser</h1><ul>${rows}</ul>` +
      `<p><a href="${escapeHtml(p.addAccountUrl)}">Add another account</a></p>`,
  );
}
