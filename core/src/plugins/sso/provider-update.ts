/**
 * Changing a registered provider (`POST /sso/providers/update`): a partial update of its settings, held to the
 * rules of registration, the id, organization, type and creation time kept.
 * @module
 * @internal
 */
import type { TokenCipher } from '../../plugin-kit.js';
import { parseDomain } from './domains.js';
import { httpsUrl, invalid, parseRoleMapping, samlConfig, secretContext, text } from './providers.js';
import type { SsoProviderRecord, SsoRoleMapping, StoredSamlConfig } from './types.js';

/** Fields of the role mapping: each one given (even empty) replaces its part of the stored mapping. */
const MAPPING_FIELDS = ['roleAttribute', 'roleValues', 'defaultRole'] as const;
/** Fields that bring new SAML settings (and certificates): given non-empty, they replace them all. */
const SAML_SOURCES = ['metadataXml', 'metadataUrl', 'certificate'] as const;

/** The stored mapping as the form would carry it, so it is checked by the same parser. */
const mappingForm = (m: SsoRoleMapping): Record<string, string> => ({
  roleAttribute: m.attribute,
  roleValues: JSON.stringify(m.values),
  defaultRole: m.defaultRole ?? '',
});

/**
 * The record after applying the form `body` to `existing`. A field left out (or, for secrets and SAML sources, left
 * empty) keeps its value: `name`, `domain` (empty: none), `issuer`, `clientId`, `clientSecret` (re-encrypted),
 * `scope`; `metadataXml` | `metadataUrl` | `certificate` (with `entityId`, `ssoUrl`) replace the SAML settings as
 * at registration, or `entityId` / `ssoUrl` alone change those and keep the certificates; `roleAttribute`,
 * `roleValues`, `defaultRole` each replace their part of the mapping (all three empty: no mapping).
 *
 * The resulting mapping, changed or kept, must map to no role above `managerRole`: otherwise an admin could point a
 * provider whose mapping an owner set to `owner` at an IdP of their own.
 * @throws AuthError `SSO_PROVIDER_INVALID` (400) for malformed settings or a changed `type`; `FORBIDDEN` (403) for a
 *   mapping above `managerRole`; `SSO_ISSUER_NOT_ALLOWED` (400) from `fetchSamlMetadata`; `SSO_SAML_UNAVAILABLE`.
 */
export async function updatedProvider(input: {
  existing: SsoProviderRecord;
  body: Record<string, string>;
  roles: readonly string[];
  managerRole: string;
  cipher: TokenCipher;
  parseSamlMetadata: ((xml: string) => StoredSamlConfig) | undefined;
  fetchSamlMetadata?: (url: string) => Promise<string>;
}): Promise<SsoProviderRecord> {
  const { existing, body } = input;
  const given = (name: string) => typeof body[name] === 'string';
  if (given('type') && body.type !== existing.type) throw invalid('`type` cannot change: register a new provider');
  if (given('providerId') && body.providerId !== existing.id) throw invalid('`providerId` cannot change');
  const name = given('name') ? (text(body, 'name', false) ?? existing.id) : existing.name;
  if (name.length > 100) throw invalid('`name` is too long');
  const domain = given('domain') ? (body.domain!.trim() ? parseDomain(body.domain) : null) : existing.domain;
  // The stored mapping with the given fields over it, checked as a registration's (the kept part included).
  const mappingFields = Object.fromEntries(MAPPING_FIELDS.filter(given).map((field) => [field, body[field]!]));
  const current = existing.roleMapping ? mappingForm(existing.roleMapping) : {};
  const mapping = parseRoleMapping({ ...current, ...mappingFields }, input.roles, input.managerRole);
  const record = { ...existing, name, domain, roleMapping: mapping };
  if (existing.type === 'saml') {
    const old = existing.saml!;
    if (SAML_SOURCES.some((field) => text(body, field, false) !== undefined))
      return {
        ...record,
        saml: await samlConfig(
          { entityId: old.entityId, ssoUrl: old.ssoUrl, ...body },
          input.parseSamlMetadata,
          input.fetchSamlMetadata,
        ),
      };
    const entityId = text(body, 'entityId', false) ?? old.entityId;
    const ssoUrl = httpsUrl(text(body, 'ssoUrl', false) ?? old.ssoUrl, 'ssoUrl');
    // Unchanged, the settings stay whole (a `metadataUrl` shown included); changed by hand, the URL no longer says.
    const same = entityId === old.entityId && ssoUrl === old.ssoUrl;
    return { ...record, saml: same ? old : { entityId, ssoUrl, certificates: old.certificates } };
  }
  const old = existing.oidc!;
  const secret = text(body, 'clientSecret', false);
  const scope = given('scope') ? text(body, 'scope', false) : old.scope;
  return {
    ...record,
    oidc: {
      issuer: httpsUrl(text(body, 'issuer', false) ?? old.issuer, 'issuer'),
      clientId: text(body, 'clientId', false) ?? old.clientId,
      clientSecret: secret ? await input.cipher.encrypt(secret, secretContext(existing.id)) : old.clientSecret,
      ...(scope ? { scope } : {}),
    },
  };
}
