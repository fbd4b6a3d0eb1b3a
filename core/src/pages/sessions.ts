/**
 * The default "Your sessions" page: the caller's signed-in devices, each
 * with a button that ends it, and one that ends all the others. Plain forms,
 * no JavaScript, the CSRF token embedded.
 * @internal
 * @module
 */
import { escapeHtml, hidden, layout } from './html.js';
import type { SessionInfoJson } from '../contract/wire.js';

/**
 * One signed-in session of the caller, as `GET {basePath}/sessions` answers
 * it and the page shows it. Times are ISO 8601 strings (UTC).
 */
export type SessionInfo = SessionInfoJson;

/** An ISO time as `2030-01-02 03:04 UTC`. */
const when = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export function sessionsPage(input: { basePath: string; csrfToken: string; sessions: readonly SessionInfo[] }): string {
  const action = escapeHtml(`${input.basePath}/sessions/revoke`);
  const form = (fields: string, label: string) =>
    `<form method="post" action="${action}">${hidden('csrfToken', input.csrfToken)}${fields}<button type="submit">${label}</button></form>`;
  const items = input.sessions.map((s) => {
    const device = escapeHtml(s.userAgent ?? 'Unknown device');
    const where = s.ip ? ` from ${escapeHtml(s.ip)}` : '';
    const label = s.current ? 'Sign out this device' : 'Sign out this session';
    return (
      `<li><p><strong>${device}</strong>${s.current ? ' (this device)' : ''}</p>` +
      `<p>Signed in ${when(s.createdAt)}${where}; last active ${when(s.lastActiveAt)}</p>${form(hidden('id', s.id), label)}</li>`
    );
  });
  const others = input.sessions.some((s) => !s.current)
    ? form(hidden('others', 'true'), 'Sign out all other sessions')
    : '';
  return layout('Your sessions', `<h1>Your sessions</h1><ul>${items.join('')}</ul>${others}`);
}
