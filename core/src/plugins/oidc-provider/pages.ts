/**
 * The default no-JS pages of `oidcProvider()`: the consent page, the sign-out confirmation of end-session, and the
 * account's "Apps with access" list.
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout } from '../../plugin-kit.js';

/** What each scope lets an application see, as the consent page says it. */
const SCOPE_TEXT: Record<string, string> = {
  openid: 'Know who you are (your account id)',
  profile: 'See your name and picture',
  email: 'See your email address',
  offline_access: 'Keep access while you are away',
};

const form = (action: string, csrfToken: string, body: string) =>
  `<form method="post" action="${escapeHtml(action)}">${hidden('csrfToken', csrfToken)}${body}</form>`;

/** The consent page: the app, what it asks for, Allow and Deny. `request` is the sealed authorization request. */
export function consentPage(input: {
  action: string;
  csrfToken: string;
  clientName: string;
  scopes: readonly string[];
  request: string;
  userLabel: string;
}): string {
  const items = input.scopes.map((s) => `<li>${escapeHtml(SCOPE_TEXT[s] ?? s)}</li>`).join('');
  return layout(
    `Allow ${input.clientName}?`,
    `<h1>Allow ${escapeHtml(input.clientName)} to access your account?</h1>` +
      `<p>Signed in as ${escapeHtml(input.userLabel)}. ${escapeHtml(input.clientName)} will be able to:</p><ul>${items}</ul>` +
      form(
        input.action,
        input.csrfToken,
        `${hidden('request', input.request)}<button type="submit" name="decision" value="allow">Allow</button> ` +
          `<button type="submit" name="decision" value="deny">Deny</button>`,
      ),
  );
}

/** End-session: asks before signing out (a GET never signs out). */
export function signOutPage(input: { action: string; csrfToken: string; clientName: string | null }): string {
  const from = input.clientName ? ` from ${escapeHtml(input.clientName)}` : '';
  return layout(
    'Sign out?',
    `<h1>Sign out?</h1><p>You were sent here${from} to sign out of this site.</p>` +
      form(input.action, input.csrfToken, `<button type="submit">Sign out</button>`),
  );
}

/** A plain message page (after a sign-out without a return address). */
export function messagePage(title: string, text: string): string {
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>`);
}

/** "Apps with access": each app the user allowed, with what it may see and a Revoke button. */
export function appsPage(input: {
  action: string;
  csrfToken: string;
  apps: readonly { clientId: string; name: string; scopes: readonly string[]; since: Date }[];
}): string {
  const rows = input.apps
    .map(
      (a) =>
        `<li><strong>${escapeHtml(a.name)}</strong> — ${escapeHtml(a.scopes.join(', '))} (since ${escapeHtml(a.since.toISOString().slice(0, 10))})` +
        form(input.action, input.csrfToken, `${hidden('clientId', a.clientId)}<button type="submit">Revoke</button>`) +
        `</li>`,
    )
    .join('');
  return layout(
    'Apps with access',
    `<h1>Apps with access</h1>${rows ? `<ul>${rows}</ul>` : '<p>No application has access to your account.</p>'}`,
  );
}
