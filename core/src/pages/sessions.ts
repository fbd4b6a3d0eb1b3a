/**
 * The default "Your sessions" page: the caller's signed-in devices, each
 * with a button that ends it, and one that ends all the others. Plain forms,
 * no JavaScript, the CSRF token embedded.
 * @internal
 * @module
 */
import { escapeHtml, hidden, layout } from './html.js';
import type { SessionInfoJson } from '../contract/wire.js';
import type { CoreTranslator } from '../i18n/core/index.js';

/**
 * One signed-in session of the caller, as `GET {basePath}/sessions` answers
 * it and the page shows it. Times are ISO 8601 strings (UTC).
 */
export type SessionInfo = SessionInfoJson;

/** An ISO time as `2030-01-02 03:04 UTC`. */
const when = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export function sessionsPage(input: {
  t: CoreTranslator;
  basePath: string;
  csrfToken: string;
  sessions: readonly SessionInfo[];
}): string {
  const { t } = input;
  const action = escapeHtml(`${input.basePath}/sessions/revoke`);
  const form = (fields: string, label: string) =>
    `<form method="post" action="${action}">${hidden('csrfToken', input.csrfToken)}${fields}<button type="submit">${escapeHtml(label)}</button></form>`;
  const items = input.sessions.map((s) => {
    const device = escapeHtml(s.userAgent ?? t('sessions.unknownDevice'));
    const times = { createdAt: when(s.createdAt), lastActiveAt: when(s.lastActiveAt) };
    const line = s.ip ? t('sessions.signedInFrom', { ...times, ip: s.ip }) : t('sessions.signedIn', times);
    const label = t(s.current ? 'sessions.signOutDevice' : 'sessions.signOutSession');
    return (
      `<li><p><strong>${device}</strong>${s.current ? ` ${escapeHtml(t('sessions.thisDevice'))}` : ''}</p>` +
      `<p>${escapeHtml(line)}</p>${form(hidden('id', s.id), label)}</li>`
    );
  });
  const others = input.sessions.some((s) => !s.current)
    ? form(hidden('others', 'true'), t('sessions.signOutOthers'))
    : '';
  const title = t('sessions.title');
  return layout(title, `<h1>${escapeHtml(title)}</h1><ul>${items.join('')}</ul>${others}`, t.lang);
}
