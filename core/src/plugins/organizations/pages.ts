/**
 * The default no-JS pages of `organizations()`: `GET /org` (my organizations, create one, the active one's
 * members, invite, pending invitations) and `GET /org/invitation?token=` (accept or decline).
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout } from '../../pages/html.js';

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
  notice?: string | null;
  error?: string | null;
}

/** `GET /org`. */
export function organizationsPage(v: OrganizationsPageView): string {
  const b = v.basePath;
  const orgs = v.organizations
    .map(
      (o) =>
        `<li>${escapeHtml(o.name)} <small>(${escapeHtml(o.role)})</small>${v.active?.id === o.id ? ' <strong>active</strong>' : ` ${form(`${b}/org/set-active`, v.csrfToken, `${hidden('organizationId', o.id)}<button type="submit" style="width:auto;margin:0;padding:.2rem .5rem">Switch</button>`, true)}`}</li>`,
    )
    .join('');
  const mine = v.mine
    .map(
      (i) =>
        `<li>${escapeHtml(i.organization.name)} as ${escapeHtml(i.role)} ${form(`${b}/org/invitation/accept`, v.csrfToken, `${hidden('invitationId', i.id)}<button type="submit" style="width:auto;margin:0;padding:.2rem .5rem">Accept</button>`, true)}</li>`,
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
                `${hidden('organizationId', a.id)}${hidden('userId', m.userId)}<select name="role" aria-label="Role of ${escapeHtml(m.email ?? m.userId)}">${roleOptions(m.role)}</select><button type="submit">Set role</button>`,
              ) +
              form(
                `${b}/org/members/remove`,
                v.csrfToken,
                `${hidden('organizationId', a.id)}${hidden('userId', m.userId)}<button type="submit">Remove</button>`,
              )
            : m.userId === v.selfId
              ? 'You'
              : '';
        return `<tr data-member="${escapeHtml(m.email ?? m.userId)}"><td>${escapeHtml(m.email ?? '')}</td><td>${escapeHtml(m.name ?? '')}</td><td class="role">${escapeHtml(m.role)}</td><td>${actions}</td></tr>`;
      })
      .join('');
    const pending = v.invitations
      .map(
        (i) =>
          `<li>${escapeHtml(i.email)} as ${escapeHtml(i.role)} ${form(`${b}/org/invitations/resend`, v.csrfToken, `${hidden('invitationId', i.id)}<button type="submit" style="width:auto;margin:0;padding:.2rem .5rem">Resend</button>`, true)} ${form(`${b}/org/invitations/revoke`, v.csrfToken, `${hidden('invitationId', i.id)}<button type="submit" style="width:auto;margin:0;padding:.2rem .5rem">Revoke</button>`, true)}</li>`,
      )
      .join('');
    const inviteForm = a.manager
      ? `<h3>Invite someone</h3>${form(
          `${b}/org/invite`,
          v.csrfToken,
          `${hidden('organizationId', a.id)}<label for="org-invite-email">Email</label><input id="org-invite-email" name="email" type="email" required><label for="org-invite-role">Role</label><select id="org-invite-role" name="role">${roleOptions(v.defaultRole)}</select><button type="submit">Send invitation</button>`,
        )}${pending ? `<h3>Pending invitations</h3><ul>${pending}</ul>` : ''}`
      : '';
    active = `<h2 id="active-org">${escapeHtml(a.name)}</h2><p>Your role: <strong>${escapeHtml(a.role)}</strong></p><table><thead><tr><th>Email</th><th>Name</th><th>Role</th><th></th></tr></thead><tbody>${rows}</tbody></table>${v.membersNext ? `<p><a href="${escapeHtml(`${b}/org?after=${encodeURIComponent(v.membersNext)}`)}">More members</a></p>` : ''}${inviteForm}${form(`${b}/org/leave`, v.csrfToken, `${hidden('organizationId', a.id)}<button type="submit">Leave ${escapeHtml(a.name)}</button>`)}`;
  }
  return layout(
    'Organizations',
    `${STYLE}<h1>Organizations</h1>${notices(v.notice, v.error)}${orgs ? `<ul>${orgs}</ul>` : '<p>You belong to no organization yet.</p>'}${mine ? `<h2>Invitations for you</h2><ul>${mine}</ul>` : ''}${active}<h2>Create an organization</h2>${form(`${b}/org/create`, v.csrfToken, `<label for="org-name">Name</label><input id="org-name" name="name" required maxlength="200"><button type="submit">Create</button>`)}`,
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
}): string {
  const b = v.basePath;
  const here = `${b}/org/invitation?token=${encodeURIComponent(v.token)}`;
  const actions = v.signedIn
    ? form(
        `${b}/org/invitation/accept`,
        v.csrfToken,
        `${hidden('token', v.token)}<button type="submit">Accept</button>`,
      ) +
      form(
        `${b}/org/invitation/decline`,
        v.csrfToken,
        `${hidden('token', v.token)}<button type="submit">Decline</button>`,
      )
    : `<p><a href="${escapeHtml(`${b}/signin?callbackUrl=${encodeURIComponent(here)}`)}">Sign in</a> or <a href="${escapeHtml(`${b}/signup?callbackUrl=${encodeURIComponent(here)}`)}">create an account</a> as ${escapeHtml(v.email)} to answer.</p>`;
  return layout(
    'Invitation',
    `<h1>Join ${escapeHtml(v.organization)}</h1>${notices(null, v.error)}<p>You are invited as <strong>${escapeHtml(v.role)}</strong> (sent to ${escapeHtml(v.email)}).</p>${actions}`,
  );
}
