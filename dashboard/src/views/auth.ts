import type { AuditEntry, AuditFilter, RateLimitRefusal } from '../auth-activity.js';
import { html, page, time, type Html, type PageContext } from '../html.js';

/** What the Auth view shows; `undefined` parts were not configured. */
export interface AuthViewData {
  activeSessions?: number | undefined;
  signIns?: AuditEntry[] | undefined;
  refusals?: RateLimitRefusal[] | undefined;
  audit?: AuditEntry[] | undefined;
  filter: AuditFilter;
  /** Sources that failed to answer (their names). */
  failed: string[];
}

const notConfigured = (option: string) =>
  html`<p class="muted">Not configured: pass <code>authActivity.${option}</code> to <code>createDashboard</code>.</p>`;

function entries(list: AuditEntry[], empty: string): Html {
  if (list.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<table><thead><tr><th>Time</th><th>Action</th><th>Actor</th><th>Target</th><th>Outcome</th><th>IP</th><th>Detail</th></tr></thead><tbody>${list.map(
    (e) =>
      html`<tr><td>${time(e.at)}</td><td>${e.action}</td><td>${e.actor ?? ''}</td><td>${e.target ?? ''}</td><td>${e.outcome ?? ''}</td><td>${e.ip ?? ''}</td><td>${e.detail ?? ''}</td></tr>`,
  )}</tbody></table>`;
}

/** The Auth view: active sessions, sign-ins, rate-limit refusals and the filterable audit log. */
export function authPage(context: PageContext, data: AuthViewData): string {
  const { filter } = data;
  const content = html`<h1>Auth activity</h1>
${data.failed.length > 0 ? html`<p class="error" role="alert">Could not read: ${data.failed.join(', ')}.</p>` : ''}
<section><h2>Active sessions</h2>${data.activeSessions === undefined ? notConfigured('activeSessions') : html`<div class="count" data-active-sessions>${data.activeSessions}</div><p class="muted" data-active-sessions-note>About this many: the adapter recounts at most once a minute.</p>`}</section>
<section><h2>Recent sign-ins and failures</h2>${data.signIns === undefined ? notConfigured('signIns') : entries(data.signIns, 'No sign-ins recorded.')}</section>
<section><h2>Rate-limit refusals</h2>${
    data.refusals === undefined
      ? notConfigured('rateLimitRefusals')
      : data.refusals.length === 0
        ? html`<p class="muted">No refusals recorded.</p>`
        : html`<table><thead><tr><th>Time</th><th>Limit</th><th>Key</th></tr></thead><tbody>${data.refusals.map(
            (r) => html`<tr><td>${time(r.at)}</td><td>${r.limit ?? ''}</td><td>${r.key}</td></tr>`,
          )}</tbody></table>`
  }</section>
<section><h2>Audit log</h2>${
    data.audit === undefined
      ? notConfigured('auditLog')
      : html`<form method="get" action="${context.base}/auth"><label>Action <input name="action" value="${filter.action ?? ''}"></label> <label>Actor <input name="actor" value="${filter.actor ?? ''}"></label> <label>Outcome <select name="outcome"><option value="">any</option><option value="success"${filter.outcome === 'success' ? html` selected` : ''}>success</option><option value="failure"${filter.outcome === 'failure' ? html` selected` : ''}>failure</option></select></label> <button type="submit">Filter</button></form>${entries(data.audit, 'No entries match.')}`
  }</section>`;
  return page('Auth activity', context, content);
}
