/**
 * The default no-JS pages of `sso()`: "Sign in with SSO" (an email, or an organization) and the organization
 * managers' page to register a provider and claim and verify a domain.
 * @module
 * @internal
 */
import { escapeHtml, hidden, layout, type PageLocale } from '../../plugin-kit.js';
import { ssoMessages } from './messages.js';
import type { DomainChallenge } from './domains.js';
import type { domainView } from './domains.js';
import type { providerView } from './providers.js';

const alert = (error: string | null | undefined) =>
  error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : '';
const field = (id: string, label: string, input: string) =>
  `<label for="${id}">${escapeHtml(label)}</label>${input.replace('<input ', `<input id="${id}" `).replace('<textarea ', `<textarea id="${id}" `).replace('<select ', `<select id="${id}" `)}`;

/** `GET /sso/sign-in`: the address whose domain picks the organization's identity provider, in the page's language. */
export function ssoSignInPage(p: {
  basePath: string;
  csrfToken: string;
  callbackUrl: string;
  error?: string | null;
  locale?: PageLocale | undefined;
}): string {
  const t = ssoMessages.for(p.locale);
  const fields = `${hidden('csrfToken', p.csrfToken)}${p.callbackUrl !== '/' ? hidden('callbackUrl', p.callbackUrl) : ''}`;
  return layout(
    t('sso.signIn.title'),
    `<h1>${escapeHtml(t('sso.signIn.title'))}</h1>${alert(p.error)}<p>${escapeHtml(t('sso.signIn.lead'))}</p>` +
      `<form method="post" action="${escapeHtml(`${p.basePath}/sso/sign-in`)}">${fields}` +
      field('sso-email', t('sso.signIn.email'), '<input name="email" type="email" autocomplete="email" required>') +
      `<button type="submit">${escapeHtml(t('sso.signIn.continue'))}</button></form>` +
      `<p><a href="${escapeHtml(`${p.basePath}/signin`)}">${escapeHtml(t('sso.signIn.other'))}</a></p>`,
    t.lang,
  );
}

/** `GET /sso/manage?organizationId=`: the organization's providers and domains, for its managers. */
export function ssoManagePage(p: {
  basePath: string;
  csrfToken: string;
  organization: { id: string; name: string };
  providers: ReturnType<typeof providerView>[];
  domains: ReturnType<typeof domainView>[];
  challenge?: DomainChallenge | null;
  notice?: string | null;
  error?: string | null;
  samlAvailable: boolean;
}): string {
  const base = p.basePath;
  const org = hidden('organizationId', p.organization.id);
  const csrf = hidden('csrfToken', p.csrfToken);
  const form = (action: string, body: string, label: string) =>
    `<form method="post" action="${escapeHtml(`${base}${action}`)}">${csrf}${org}${body}<button type="submit">${escapeHtml(label)}</button></form>`;
  const providers = p.providers.length
    ? `<ul>${p.providers
        .map(
          (x) =>
            `<li>${escapeHtml(x.name)} (${escapeHtml(x.type.toUpperCase())}, id ${escapeHtml(x.id)}${x.domain ? `, ${escapeHtml(x.domain)}` : ''})` +
            form('/sso/providers/delete', hidden('providerId', x.id), 'Remove') +
            `</li>`,
        )
        .join('')}</ul>`
    : '<p>No identity provider yet.</p>';
  const domains = p.domains.length
    ? `<ul>${p.domains
        .map(
          (d) =>
            `<li>${escapeHtml(d.domain)}: ${d.verified ? 'verified' : `not verified (TXT record at <code>${escapeHtml(d.txtName)}</code>)`}` +
            (d.verified ? '' : form('/sso/domains/verify', hidden('domain', d.domain), 'Verify')) +
            `</li>`,
        )
        .join('')}</ul>`
    : '<p>No domain claimed yet.</p>';
  const challenge = p.challenge
    ? `<p role="status">Publish this DNS TXT record, then press Verify:<br>name <code>${escapeHtml(p.challenge.txtName)}</code><br>value <code>${escapeHtml(p.challenge.txtValue)}</code><br>The value is shown once; claiming the domain again makes a new one.</p>`
    : '';
  const samlNote = p.samlAvailable ? 'metadata XML, or entity id, SSO URL and certificate' : 'not available';
  return layout(
    `Single sign-on: ${p.organization.name}`,
    `<h1>Single sign-on: ${escapeHtml(p.organization.name)}</h1>${alert(p.error)}${p.notice ? `<p role="status">${escapeHtml(p.notice)}</p>` : ''}${challenge}` +
      `<h2>Identity providers</h2>${providers}` +
      `<h2>Register an OpenID Connect provider</h2>` +
      form(
        '/sso/providers/register',
        hidden('type', 'oidc') +
          field('sso-name', 'Name', '<input name="name" required maxlength="100">') +
          field('sso-issuer', 'Issuer URL', '<input name="issuer" type="url" required>') +
          field('sso-client-id', 'Client id', '<input name="clientId" required>') +
          field(
            'sso-client-secret',
            'Client secret',
            '<input name="clientSecret" type="password" autocomplete="off" required>',
          ) +
          field('sso-domain', 'Email domain (optional)', '<input name="domain">') +
          field('sso-role-attr', 'Role claim (optional, e.g. groups)', '<input name="roleAttribute">') +
          field(
            'sso-role-values',
            'Role by claim value, one value=role a line (optional)',
            '<textarea name="roleValues" rows="3"></textarea>',
          ),
        'Register',
      ) +
      `<h2>Register a SAML 2.0 identity provider</h2><p>Settings: ${escapeHtml(samlNote)}. Give the IdP this app's metadata at <code>${escapeHtml(base)}/sso/saml/metadata/&lt;provider id&gt;</code>.</p>` +
      (p.samlAvailable
        ? form(
            '/sso/providers/register',
            hidden('type', 'saml') +
              field('sso-saml-name', 'Name', '<input name="name" required maxlength="100">') +
              field('sso-saml-metadata', 'IdP metadata XML', '<textarea name="metadataXml" rows="6"></textarea>') +
              field('sso-saml-domain', 'Email domain (optional)', '<input name="domain">'),
            'Register',
          )
        : '') +
      `<h2>Domains</h2>${domains}` +
      form('/sso/domains/claim', field('sso-claim', 'Claim a domain', '<input name="domain" required>'), 'Claim'),
  );
}
