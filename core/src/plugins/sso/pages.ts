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
  locale?: PageLocale | undefined;
}): string {
  const t = ssoMessages.for(p.locale);
  const base = p.basePath;
  const org = hidden('organizationId', p.organization.id);
  const csrf = hidden('csrfToken', p.csrfToken);
  const code = (text: string) => `<code>${escapeHtml(text)}</code>`;
  const form = (action: string, body: string, label: string) =>
    `<form method="post" action="${escapeHtml(`${base}${action}`)}">${csrf}${org}${body}<button type="submit">${escapeHtml(label)}</button></form>`;
  const value = (v: string | null | undefined) => (v ? ` value="${escapeHtml(v)}"` : '');
  /** The update form of a provider: its settings filled in, secrets and metadata empty (left empty, unchanged). */
  const editForm = (x: ReturnType<typeof providerView>) => {
    const id = (name: string) => `sso-${name}-${x.id}`;
    const mapping = x.roleMapping;
    const roleValues = mapping
      ? Object.entries(mapping.values)
          .map(([v, role]) => `${v}=${role}`)
          .join('\n')
      : '';
    const settings = x.oidc
      ? field(
          id('issuer'),
          t('sso.manage.issuer'),
          `<input name="issuer" type="url" required${value(x.oidc.issuer)}>`,
        ) +
        field(id('client-id'), t('sso.manage.clientId'), `<input name="clientId" required${value(x.oidc.clientId)}>`) +
        field(
          id('client-secret'),
          t('sso.manage.keepSecret'),
          '<input name="clientSecret" type="password" autocomplete="off">',
        )
      : field(id('metadata-url'), t('sso.manage.keepMetadataUrl'), '<input name="metadataUrl" type="url">') +
        field(id('metadata'), t('sso.manage.keepMetadataXml'), '<textarea name="metadataXml" rows="4"></textarea>');
    return form(
      '/sso/providers/update',
      hidden('providerId', x.id) +
        field(id('name'), t('sso.manage.name'), `<input name="name" required maxlength="100"${value(x.name)}>`) +
        settings +
        field(id('domain'), t('sso.manage.domain'), `<input name="domain"${value(x.domain)}>`) +
        field(
          id('role-attr'),
          t('sso.manage.roleAttribute'),
          `<input name="roleAttribute"${value(mapping?.attribute)}>`,
        ) +
        field(
          id('role-values'),
          t('sso.manage.roleValues'),
          `<textarea name="roleValues" rows="3">${escapeHtml(roleValues)}</textarea>`,
        ),
      t('sso.manage.save'),
    );
  };
  const providers = p.providers.length
    ? `<ul>${p.providers
        .map(
          (x) =>
            `<li>${escapeHtml(t('sso.manage.provider', { name: x.name, type: x.type.toUpperCase(), id: x.id }))}${x.domain ? `, ${escapeHtml(x.domain)}` : ''}` +
            form('/sso/providers/delete', hidden('providerId', x.id), t('sso.manage.remove')) +
            `<details><summary>${escapeHtml(t('sso.manage.edit'))}</summary>${editForm(x)}</details>` +
            `</li>`,
        )
        .join('')}</ul>`
    : `<p>${escapeHtml(t('sso.manage.noProviders'))}</p>`;
  const domains = p.domains.length
    ? `<ul>${p.domains
        .map((d) =>
          d.verified
            ? `<li>${escapeHtml(t('sso.manage.verified', { domain: d.domain }))}</li>`
            : `<li>${t.html('sso.manage.unverified', { domain: d.domain }, { name: code(d.txtName) })}` +
              form('/sso/domains/verify', hidden('domain', d.domain), t('sso.manage.verify')) +
              `</li>`,
        )
        .join('')}</ul>`
    : `<p>${escapeHtml(t('sso.manage.noDomains'))}</p>`;
  const challenge = p.challenge
    ? `<p role="status">${t.html('sso.manage.publish', {}, { name: code(p.challenge.txtName), value: code(p.challenge.txtValue) })}</p>`
    : '';
  const metadataUrl = `<code>${escapeHtml(base)}/sso/saml/metadata/&lt;provider id&gt;</code>`;
  const name = (id: string) => field(id, t('sso.manage.name'), '<input name="name" required maxlength="100">');
  const domainField = (id: string) => field(id, t('sso.manage.domain'), '<input name="domain">');
  const title = t('sso.manage.title', { organization: p.organization.name });
  return layout(
    title,
    `<h1>${escapeHtml(title)}</h1>${alert(p.error)}${p.notice ? `<p role="status">${escapeHtml(p.notice)}</p>` : ''}${challenge}` +
      `<h2>${escapeHtml(t('sso.manage.providers'))}</h2>${providers}` +
      `<h2>${escapeHtml(t('sso.manage.oidc'))}</h2>` +
      form(
        '/sso/providers/register',
        hidden('type', 'oidc') +
          name('sso-name') +
          field('sso-issuer', t('sso.manage.issuer'), '<input name="issuer" type="url" required>') +
          field('sso-client-id', t('sso.manage.clientId'), '<input name="clientId" required>') +
          field(
            'sso-client-secret',
            t('sso.manage.clientSecret'),
            '<input name="clientSecret" type="password" autocomplete="off" required>',
          ) +
          domainField('sso-domain') +
          field('sso-role-attr', t('sso.manage.roleAttribute'), '<input name="roleAttribute">') +
          field('sso-role-values', t('sso.manage.roleValues'), '<textarea name="roleValues" rows="3"></textarea>'),
        t('sso.manage.register'),
      ) +
      `<h2>${escapeHtml(t('sso.manage.saml'))}</h2>` +
      (p.samlAvailable
        ? `<p>${t.html('sso.manage.samlMetadataAt', {}, { url: metadataUrl })}</p>` +
          form(
            '/sso/providers/register',
            hidden('type', 'saml') +
              name('sso-saml-name') +
              field(
                'sso-saml-metadata-url',
                t('sso.manage.metadataUrl'),
                '<input name="metadataUrl" type="url" inputmode="url">',
              ) +
              field(
                'sso-saml-metadata',
                t('sso.manage.metadataXml'),
                '<textarea name="metadataXml" rows="6"></textarea>',
              ) +
              domainField('sso-saml-domain'),
            t('sso.manage.register'),
          )
        : `<p>${escapeHtml(t('sso.manage.samlUnavailable'))}</p>`) +
      `<h2>${escapeHtml(t('sso.manage.domains'))}</h2>${domains}` +
      form(
        '/sso/domains/claim',
        field('sso-claim', t('sso.manage.claim'), '<input name="domain" required>'),
        t('sso.manage.claimButton'),
      ),
    t.lang,
  );
}
