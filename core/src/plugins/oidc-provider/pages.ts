/**
 * The default no-JS pages of `oidcProvider()`: the consent page, the sign-out confirmation of end-session, and the
 * account's "Apps with access" list, each in the page's language (see `./messages.ts`). An application's name is
 * shown as it was registered.
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout, type PageLocale } from '../../plugin-kit.js';
import { oidcProviderMessages, type OidcProviderMessageId } from './messages.js';

/** The message saying what each scope lets an application see, as the consent page says it. */
const SCOPE_TEXT: Readonly<Record<string, OidcProviderMessageId>> = {
  openid: 'oidcProvider.scope.openid',
  profile: 'oidcProvider.scope.profile',
  email: 'oidcProvider.scope.email',
  offline_access: 'oidcProvider.scope.offline_access',
};

const form = (action: string, csrfToken: string, body: string) =>
  `<form method="post" action="${escapeHtml(action)}">${hidden('csrfToken', csrfToken)}${body}</form>`;

/**
 * The consent page: the app, what it asks for, Allow and Deny. `request` is the sealed authorization request; a
 * scope without a description of its own is listed by its name.
 */
export function consentPage(input: {
  action: string;
  csrfToken: string;
  clientName: string;
  scopes: readonly string[];
  request: string;
  userLabel: string;
  locale?: PageLocale | undefined;
}): string {
  const t = oidcProviderMessages.for(input.locale);
  const client = { client: input.clientName };
  const items = input.scopes
    .map((s) => `<li>${escapeHtml(Object.hasOwn(SCOPE_TEXT, s) ? t(SCOPE_TEXT[s]!) : s)}</li>`)
    .join('');
  return layout(
    t('oidcProvider.consent.title', client),
    `<h1>${t.html('oidcProvider.consent.heading', client)}</h1>` +
      `<p>${t.html('oidcProvider.consent.lead', { ...client, user: input.userLabel })}</p><ul>${items}</ul>` +
      form(
        input.action,
        input.csrfToken,
        `${hidden('request', input.request)}<button type="submit" name="decision" value="allow">${escapeHtml(t('oidcProvider.consent.allow'))}</button> ` +
          `<button type="submit" name="decision" value="deny">${escapeHtml(t('oidcProvider.consent.deny'))}</button>`,
      ),
    t.lang,
  );
}

/** End-session: asks before signing out (a GET never signs out). */
export function signOutPage(input: {
  action: string;
  csrfToken: string;
  clientName: string | null;
  locale?: PageLocale | undefined;
}): string {
  const t = oidcProviderMessages.for(input.locale);
  const lead = input.clientName
    ? t.html('oidcProvider.signOut.leadFrom', { client: input.clientName })
    : t.html('oidcProvider.signOut.lead');
  return layout(
    t('oidcProvider.signOut.title'),
    `<h1>${escapeHtml(t('oidcProvider.signOut.title'))}</h1><p>${lead}</p>` +
      form(
        input.action,
        input.csrfToken,
        `<button type="submit">${escapeHtml(t('oidcProvider.signOut.button'))}</button>`,
      ),
    t.lang,
  );
}

/** The page after an end-session sign-out without a return address, in the page's language. */
export function signedOutPage(locale?: PageLocale): string {
  const t = oidcProviderMessages.for(locale);
  const title = t('oidcProvider.signedOut.title');
  return layout(title, `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(t('oidcProvider.signedOut.text'))}</p>`, t.lang);
}

/** "Apps with access": each app the user allowed, with the scopes it may use (by name) and a Revoke button. */
export function appsPage(input: {
  action: string;
  csrfToken: string;
  apps: readonly { clientId: string; name: string; scopes: readonly string[]; since: Date }[];
  locale?: PageLocale | undefined;
}): string {
  const t = oidcProviderMessages.for(input.locale);
  const rows = input.apps
    .map(
      (a) =>
        `<li><strong>${escapeHtml(a.name)}</strong> — ` +
        t.html('oidcProvider.apps.grant', { scopes: a.scopes.join(', '), date: a.since.toISOString().slice(0, 10) }) +
        form(
          input.action,
          input.csrfToken,
          `${hidden('clientId', a.clientId)}<button type="submit">${escapeHtml(t('oidcProvider.apps.revoke'))}</button>`,
        ) +
        `</li>`,
    )
    .join('');
  return layout(
    t('oidcProvider.apps.title'),
    `<h1>${escapeHtml(t('oidcProvider.apps.title'))}</h1>` +
      (rows ? `<ul>${rows}</ul>` : `<p>${escapeHtml(t('oidcProvider.apps.none'))}</p>`),
    t.lang,
  );
}
