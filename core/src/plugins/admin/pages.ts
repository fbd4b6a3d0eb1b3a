/**
 * The default no-JS admin page: a searchable, paged user list with ban, unban, revoke-sessions and impersonate
 * buttons, and the banner shown while impersonating.
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout } from '../../pages/html.js';
import type { AdminUserView } from './users.js';

/** What the page shows. */
export interface AdminPageView {
  basePath: string;
  csrfToken: string;
  /** The signed-in admin: their own row has no actions (they would be refused). */
  selfId: string;
  users: AdminUserView[];
  search: string;
  next: string | null;
  notice?: string | null;
  error?: string | null;
}

const STYLE =
  '<style>main{width:min(60rem,94vw)}table{width:100%;border-collapse:collapse}td,th{padding:.4rem;border-bottom:1px solid #e5e7eb;text-align:left;vertical-align:middle}.admin-actions form{display:inline-flex;gap:.3rem;margin:.15rem}.admin-actions button,.admin-actions input{width:auto;margin:0;padding:.3rem .6rem}</style>';

const button = (basePath: string, csrfToken: string, action: string, userId: string, label: string, extra = '') =>
  `<form method="post" action="${escapeHtml(`${basePath}/admin/${action}`)}">${hidden('csrfToken', csrfToken)}${hidden('userId', userId)}${extra}<button type="submit">${escapeHtml(label)}</button></form>`;

/** `GET /admin`. */
export function adminPage(v: AdminPageView): string {
  const rows = v.users
    .map((u) => {
      const id = String(u.id);
      const status = u.banned
        ? `Banned${u.banned.expiresAt ? ` until ${escapeHtml(u.banned.expiresAt)}` : ''}${u.banned.reason ? `: ${escapeHtml(u.banned.reason)}` : ''}`
        : 'Active';
      const ban = u.banned
        ? button(v.basePath, v.csrfToken, 'users/unban', id, 'Unban')
        : button(
            v.basePath,
            v.csrfToken,
            'users/ban',
            id,
            'Ban',
            `<input name="reason" placeholder="Reason" aria-label="Reason for banning ${escapeHtml(u.email ?? id)}" maxlength="500">`,
          );
      const actions =
        id === v.selfId
          ? 'You'
          : `${ban}${button(v.basePath, v.csrfToken, 'users/revoke-sessions', id, 'Sign out everywhere')}${button(v.basePath, v.csrfToken, 'impersonate', id, 'Impersonate')}`;
      return `<tr data-user-id="${escapeHtml(id)}"><td>${escapeHtml(u.email ?? '')}</td><td>${escapeHtml(u.name ?? '')}</td><td>${escapeHtml(u.role ?? '')}</td><td class="status">${status}</td><td class="admin-actions">${actions}</td></tr>`;
    })
    .join('');
  const more = v.next
    ? `<p><a href="${escapeHtml(`${v.basePath}/admin?search=${encodeURIComponent(v.search)}&after=${encodeURIComponent(v.next)}`)}">Next page</a></p>`
    : '';
  return layout(
    'Users',
    `${STYLE}<h1>Users</h1>${v.notice ? `<p role="status">${escapeHtml(v.notice)}</p>` : ''}${v.error ? `<p class="error" role="alert">${escapeHtml(v.error)}</p>` : ''}` +
      `<form method="get" action="${escapeHtml(`${v.basePath}/admin`)}"><label for="admin-search">Search by email or name</label><input id="admin-search" name="search" value="${escapeHtml(v.search)}" maxlength="200"><button type="submit">Search</button></form>` +
      `<table><thead><tr><th>Email</th><th>Name</th><th>Role</th><th>Status</th><th>Actions</th></tr></thead><tbody>${rows || '<tr><td colspan="5">No users</td></tr>'}</tbody></table>${more}`,
  );
}
