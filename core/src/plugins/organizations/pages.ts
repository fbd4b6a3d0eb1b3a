/**
 * The default no-JS pages of `organizations()`: `GET /org` (my organizations, create one, the active one's
 * members, invite, pending invitations) and `GET /org/invitation?token=` (accept or decline).
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout } from '../../pages/html.js';
import type { PageLocale } from '../../i18n/options.js';
import { organizationsMessages } from './messages.js';

const STYLE =
  '<style>main{width:min(48rem,94vw)}table{width:100%;border-collapse:collapse}td,th{padding:.4rem;border-bottom:1px solid #e5e7eb;text-align:left}td form{display:inline-flex;gap:.3rem;margin:.1rem}td button,td select{width:auto;margin:0;padding:.3rem .6rem}</style>';
const form = (action: string, csrfToken: string, body: string, inline = false) =>
  `<form method="post" action="${escapeHtml(action)}"${inline ? ' style="display:inline"' : ''}>${hidden('csrfToken', csrfToken)}${body}</form>`;
const notices = (notice?: string | null, error?: string | null) =>
  `${notice ? `<p role="status">${escapeHtml(notice)}</p>` : ''}${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}`;

/** What `GET /org` shows. */
export interface OrganizationsPageView {
  basePath: string;
  csrfToken: string;
  organizations: { id: string; name: string; slug: string; role: string }[];
  active: { id: string; name: string; role: string; manager: boolean } | null;
  members: { userId: string; email: string | null; name: string | null; role: string }[];
  /** The cursor of the next page of members, or null on the last page. */
  membersNext?: string | null;
  invitations: { id: string; email: string; role: string }[];
  mine: { id: string; role: string; organization: { name: string } }[];
  roles: readonly string[];
  /** Preselected in the invite form. */
  defaultRole: string;
  selfId: string;
  /** Whether `GET {basePath}/sso/manage` is served (`sso()` is on): managers get a link to it. Default false. */
  ssoManage?: boolean;
  notice?: string | null;
  error?: string | null;
  /** The page's language (English without). */
  locale?: PageLocale | undefined;
}

/** `GET /org`. */
export function organizationsPage(v: OrganizationsPageView): string {
  const t = organizationsMessages.for(v.locale);
  const small = (label: string) =>
    `<button type="submit" style="width:auto;margin:0;padding:.2rem .5rem">${escapeHtml(label)}</button>`;
  const b = v.basePath;
  const orgs = v.organizations
    .map(
      (o) =>
        `<li>${escapeHtml(o.name)} <small>(${escapeHtml(o.role)})</small>${v.active?.id === o.id ? ` <strong>${escapeHtml(t('org.active'))}</strong>` : ` ${form(`${b}/org/set-active`, v.csrfToken, `${hidden('organizationId', o.id)}${small(t('org.switch'))}`, true)}`}</li>`,
    )
    .join('');
  const mine = v.mine
    .map(
      (i) =>
        `<li>${escapeHtml(t('org.asRole', { name: i.organization.name, role: i.role }))} ${form(`${b}/org/invitation/accept`, v.csrfToken, `${hidden('invitationId', i.id)}${small(t('org.accept'))}`, true)}</li>`,
    )
    .join('');
  let active = '';
  if (v.active) {
    const a = v.active;
    const roleOptions = (current: string) =>
      v.roles.map((r) => `<option${r === current ? ' selected' : ''}>${escapeHtml(r)}</option>`).join('');
    const rows = v.members
      .map((m) => {
        const actions =
          a.manager && m.userId !== v.selfId
            ? form(
                `${b}/org/members/set-role`,
                v.csrfToken,
                `${hidden('organizationId', a.id)}${hidden('userId', m.userId)}<select name="role" aria-label="${escapeHtml(t('org.roleOf', { member: m.email ?? m.userId }))}">${roleOptions(m.role)}</select><button type="submit">${escapeHtml(t('org.setRole'))}</button>`,
              ) +
              form(
                `${b}/org/members/remove`,
                v.csrfToken,
                `${hidden('organizationId', a.id)}${hidden('userId', m.userId)}<button type="submit">${escapeHtml(t('org.remove'))}</button>`,
              )
            : m.userId === v.selfId
              ? escapeHtml(t('org.you'))
              : '';
        return `<tr data-member="${escapeHtml(m.email ?? m.userId)}"><td>${escapeHtml(m.email ?? '')}</td><td>${escapeHtml(m.name ?? '')}</td><td class="role">${escapeHtml(m.role)}</td><td>${actions}</td></tr>`;
      })
      .join('');
    const pending = v.invitations
      .map(
        (i) =>
          `<li>${escapeHtml(t('org.asRole', { name: i.email, role: i.role }))} ${form(`${b}/org/invitations/resend`, v.csrfToken, `${hidden('invitationId', i.id)}${small(t('org.resend'))}`, true)} ${form(`${b}/org/invitations/revoke`, v.csrfToken, `${hidden('invitationId', i.id)}${small(t('org.revoke'))}`, true)}</li>`,
      )
      .join('');
    const inviteForm = a.manager
      ? `<h3>${escapeHtml(t('org.invite'))}</h3>${form(
          `${b}/org/invite`,
          v.csrfToken,
          `${hidden('organizationId', a.id)}<label for="org-invite-email">${escapeHtml(t('org.email'))}</label><input id="org-invite-email" name="email" type="email" required><label for="org-invite-role">${escapeHtml(t('org.role'))}</label><select id="org-invite-role" name="role">${roleOptions(v.defaultRole)}</select><button type="submit">${escapeHtml(t('org.sendInvitation'))}</button>`,
        )}${pending ? `<h3>${escapeHtml(t('org.pending'))}</h3><ul>${pending}</ul>` : ''}`
      : '';
    const ssoLink =
      a.manager && v.ssoManage
        ? `<p><a href="${escapeHtml(`${b}/sso/manage?organizationId=${encodeURIComponent(a.id)}`)}">${escapeHtml(t('org.sso'))}</a></p>`
        : '';
    const head = `<tr><th>${escapeHtml(t('org.email'))}</th><th>${escapeHtml(t('org.name'))}</th><th>${escapeHtml(t('org.role'))}</th><th></th></tr>`;
    const more = v.membersNext
      ? `<p><a href="${escapeHtml(`${b}/org?after=${encodeURIComponent(v.membersNext)}`)}">${escapeHtml(t('org.moreMembers'))}</a></p>`
      : '';
    active = `<h2 id="active-org">${escapeHtml(a.name)}</h2><p>${t.html('org.yourRole', { role: a.role }, ['role'])}</p><table><thead>${head}</thead><tbody>${rows}</tbody></table>${more}${inviteForm}${ssoLink}${form(`${b}/org/leave`, v.csrfToken, `${hidden('organizationId', a.id)}<button type="submit">${escapeHtml(t('org.leave', { organization: a.name }))}</button>`)}`;
  }
  return layout(
    t('org.title'),
    `${STYLE}<h1>${escapeHtml(t('org.title'))}</h1>${notices(v.notice, v.error)}${orgs ? `<ul>${orgs}</ul>` : `<p>${escapeHtml(t('org.none'))}</p>`}${mine ? `<h2>${escapeHtml(t('org.invitationsForYou'))}</h2><ul>${mine}</ul>` : ''}${active}<h2>${escapeHtml(t('org.createHeading'))}</h2>${form(`${b}/org/create`, v.csrfToken, `<label for="org-name">${escapeHtml(t('org.name'))}</label><input id="org-name" name="name" required maxlength="200"><button type="submit">${escapeHtml(t('org.create'))}</button>`)}`,
    t.lang,
  );
}

/** `GET /org/invitation?token=`: what the invitation is, and accept / decline (or sign in first). */
export function invitationPage(v: {
  basePath: string;
  csrfToken: string;
  token: string;
  organization: string;
  role: string;
  email: string;
  signedIn: boolean;
  error?: string | null;
  /** The page's language (English without). */
  locale?: PageLocale | undefined;
}): string {
  const t = organizationsMessages.for(v.locale);
  const b = v.basePath;
  const here = `${b}/org/invitation?token=${encodeURIComponent(v.token)}`;
  const actions = v.signedIn
    ? form(
        `${b}/org/invitation/accept`,
        v.csrfToken,
        `${hidden('token', v.token)}<button type="submit">${escapeHtml(t('org.accept'))}</button>`,
      ) +
      form(
        `${b}/org/invitation/decline`,
        v.csrfToken,
        `${hidden('token', v.token)}<button type="submit">${escapeHtml(t('org.invitation.decline'))}</button>`,
      )
    : `<p>${t.html(
        'org.invitation.answer',
        { email: v.email },
        {
          signIn: `<a href="${escapeHtml(`${b}/signin?callbackUrl=${encodeURIComponent(here)}`)}">${escapeHtml(t('org.invitation.signIn'))}</a>`,
          signUp: `<a href="${escapeHtml(`${b}/signup?callbackUrl=${encodeURIComponent(here)}`)}">${escapeHtml(t('org.invitation.signUp'))}</a>`,
        },
      )}</p>`;
  return layout(
    t('org.invitation.title'),
    `<h1>${escapeHtml(t('org.invitation.heading', { organization: v.organization }))}</h1>${notices(null, v.error)}<p>${t.html('org.invitation.text', { role: v.role, email: v.email }, ['role'])}</p>${actions}`,
    t.lang,
  );
}
