/**
 * The default no-JS admin page: a searchable, paged user list with ban, unban, revoke-sessions and impersonate
 * buttons, and the banner shown while impersonating.
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout } from '../../pages/html.js';
import type { AdminUserView } from './users.js';
import { adminMessages } from './messages.js';
import type { PageLocale } from '../../i18n/options.js';

/** What the page shows. */
export interface AdminPageView {
  basePath: string;
  csrfToken: string;
  /** The signed-in admin: their own row has no actions (they would be refused). */
  selfId: string;
  users: AdminUserView[];
  search: string;
  next: string | null;
  /** A line of status, already in the page's language. */
  notice?: string | null;
  error?: string | null;
  /** The page's language (English without). */
  locale?: PageLocale | undefined;
}

const STYLE =
  '<style>main{width:min(60rem,94vw)}table{width:100%;border-collapse:collapse}td,th{padding:.4rem;border-bottom:1px solid #e5e7eb;text-align:left;vertical-align:middle}.admin-actions form{display:inline-flex;gap:.3rem;margin:.15rem}.admin-actions button,.admin-actions input{width:auto;margin:0;padding:.3rem .6rem}</style>';

const button = (basePath: string, csrfToken: string, action: string, userId: string, label: string, extra = '') =>
  `<form method="post" action="${escapeHtml(`${basePath}/admin/${action}`)}">${hidden('csrfToken', csrfToken)}${hidden('userId', userId)}${extra}<button type="submit">${escapeHtml(label)}</button></form>`;

/** `GET /admin`. */
export function adminPage(v: AdminPageView): string {
  const t = adminMessages.for(v.locale);
  const rows = v.users
    .map((u) => {
      const id = String(u.id);
      const banned = u.banned?.expiresAt ? t('admin.bannedUntil', { until: u.banned.expiresAt }) : t('admin.banned');
      const status = u.banned
        ? `${escapeHtml(banned)}${u.banned.reason ? `: ${escapeHtml(u.banned.reason)}` : ''}`
        : escapeHtml(t('admin.active'));
      const ban = u.banned
        ? button(v.basePath, v.csrfToken, 'users/unban', id, t('admin.unban'))
        : button(
            v.basePath,
            v.csrfToken,
            'users/ban',
            id,
            t('admin.ban'),
            `<input name="reason" placeholder="${escapeHtml(t('admin.reason'))}" aria-label="${escapeHtml(t('admin.reasonFor', { user: u.email ?? id }))}" maxlength="500">`,
          );
      const actions =
        id === v.selfId
          ? escapeHtml(t('admin.you'))
          : `${ban}${button(v.basePath, v.csrfToken, 'users/revoke-sessions', id, t('admin.signOutEverywhere'))}${button(v.basePath, v.csrfToken, 'impersonate', id, t('admin.impersonate'))}`;
      return `<tr data-user-id="${escapeHtml(id)}"><td>${escapeHtml(u.email ?? '')}</td><td>${escapeHtml(u.name ?? '')}</td><td>${escapeHtml(u.role ?? '')}</td><td class="status">${status}</td><td class="admin-actions">${actions}</td></tr>`;
    })
    .join('');
  const more = v.next
    ? `<p><a href="${escapeHtml(`${v.basePath}/admin?search=${encodeURIComponent(v.search)}&after=${encodeURIComponent(v.next)}`)}">${escapeHtml(t('admin.nextPage'))}</a></p>`
    : '';
  const th = (['admin.email', 'admin.name', 'admin.role', 'admin.status', 'admin.actions'] as const)
    .map((key) => `<th>${escapeHtml(t(key))}</th>`)
    .join('');
  return layout(
    t('admin.title'),
    `${STYLE}<h1>${escapeHtml(t('admin.title'))}</h1>${v.notice ? `<p role="status">${escapeHtml(v.notice)}</p>` : ''}${v.error ? `<p class="error" role="alert">${escapeHtml(v.error)}</p>` : ''}` +
      `<form method="get" action="${escapeHtml(`${v.basePath}/admin`)}"><label for="admin-search">${escapeHtml(t('admin.search'))}</label><input id="admin-search" name="search" value="${escapeHtml(v.search)}" maxlength="200"><button type="submit">${escapeHtml(t('admin.searchButton'))}</button></form>` +
      `<table><thead><tr>${th}</tr></thead><tbody>${rows || `<tr><td colspan="5">${escapeHtml(t('admin.noUsers'))}</td></tr>`}</tbody></table>${more}`,
    t.lang,
  );
}
