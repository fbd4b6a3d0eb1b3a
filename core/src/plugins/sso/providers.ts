/**
 * Registering an organization's identity provider: the checked settings of `POST /sso/providers/register`, the
 * stored record (the OIDC client secret encrypted), and the view routes answer with (never the secret).
 * @module
 * @internal
 */
import { authError, toHex, type TokenCipher } from '../../plugin-kit.js';
import { ssoError } from './errors.js';
import { parseDomain } from './domains.js';
import type { SsoProviderRecord, SsoRoleMapping, StoredSamlConfig } from './types.js';

/** Provider ids: lower-case letters, digits and `-` (they name the callback route and the account's provider). */
const PROVIDER_ID = /^[a-z0-9][a-z0-9-]{0,47}$/;
const MAX_FIELD = 2048;

/** 400 `SSO_PROVIDER_INVALID` with `message`. */
export const invalid = (message: string) => ssoError('SSO_PROVIDER_INVALID', message);

/** The secret's place, bound into its ciphertext (moved to another row, it does not open). */
export const secretContext = (providerId: string) => `sso:${providerId}:client_secret`;

/** A trimmed form field: `undefined` when empty (400 when `required`), 400 when longer than 2048 characters. */
export function text(body: Record<string, string>, name: string, required: boolean): string | undefined {
  const value = body[name]?.trim();
  if (!value) {
    if (required) throw invalid(`\`${name}\` is required`);
    return undefined;
  }
  if (value.length > MAX_FIELD) throw invalid(`\`${name}\` is too long`);
  return value;
}

/** `value` when it is an `https:` URL (or `http:` on loopback), else 400 `SSO_PROVIDER_INVALID` naming `name`. */
export function httpsUrl(value: string, name: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`\`${name}\` must be a URL`);
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw invalid(`\`${name}\` must be an https URL`);
  return value;
}

/**
 * The role mapping from the form: `roleAttribute` and `roleValues` (JSON `{"value": "role"}`, or lines
 * `value=role`), each role one of `roles` (highest first) and, with `ceiling` (the registering manager's role),
 * none above it: a manager cannot hand out through an IdP a role they could not grant (an admin, `owner`).
 * @throws AuthError `SSO_PROVIDER_INVALID` (400) for a malformed mapping or an unknown role; `FORBIDDEN` (403) for
 *   a role above `ceiling`.
 */
export function parseRoleMapping(
  body: Record<string, string>,
  roles: readonly string[],
  ceiling?: string,
): SsoRoleMapping | null {
  const attribute = text(body, 'roleAttribute', false);
  const rawValues = text(body, 'roleValues', false);
  const defaultRole = text(body, 'defaultRole', false);
  if (!attribute && !rawValues && !defaultRole) return null;
  // No prototype: a value named `__proto__` or `constructor` is a value like any other.
  let values: Record<string, string> = Object.create(null) as Record<string, string>;
  if (rawValues) {
    if (rawValues.startsWith('{')) {
      try {
        values = JSON.parse(rawValues) as Record<string, string>;
      } catch {
        throw invalid('`roleValues` must be JSON or lines of value=role');
      }
    } else {
      for (const line of rawValues.split(/\r?\n/).filter((l) => l.trim())) {
        const eq = line.lastIndexOf('=');
        if (eq <= 0) throw invalid('`roleValues` must be JSON or lines of value=role');
        values[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
      }
    }
  }
  if (values === null || typeof values !== 'object' || Array.isArray(values))
    throw invalid('`roleValues` must map values to roles');
  const top = ceiling === undefined ? 0 : roles.indexOf(ceiling);
  for (const role of [...Object.values(values), ...(defaultRole ? [defaultRole] : [])]) {
    if (typeof role !== 'string' || !roles.includes(role))
      throw invalid(`"${String(role)}" is not an organization role`);
    if (top < 0 || roles.indexOf(role) < top)
      throw authError('FORBIDDEN', `Only a manager holding "${role}" may map an IdP's people to it`);
  }
  if (Object.keys(values).length > 0 && !attribute) throw invalid('`roleAttribute` is required with `roleValues`');
  return { attribute: attribute ?? '', values, ...(defaultRole ? { defaultRole } : {}) };
}

/**
 * The SAML settings from metadata XML (parsed by `parse`), from the metadata at `metadataUrl` (fetched by `fetch`,
 * then parsed; the URL kept for display), or from `entityId`, `ssoUrl` and `certificate`.
 */
export async function samlConfig(
  body: Record<string, string>,
  parse: ((xml: string) => StoredSamlConfig) | undefined,
  fetchMetadata: ((url: string) => Promise<string>) | undefined,
): Promise<StoredSamlConfig> {
  if (!parse) throw ssoError('SSO_SAML_UNAVAILABLE');
  const xml = body.metadataXml?.trim();
  const metadataUrl = text(body, 'metadataUrl', false);
  if (xml && metadataUrl) throw invalid('Give `metadataXml` or `metadataUrl`, not both');
  if (metadataUrl) {
    if (!fetchMetadata) throw ssoError('SSO_SAML_UNAVAILABLE');
    const fetched = await fetchMetadata(httpsUrl(metadataUrl, 'metadataUrl'));
    try {
      return { ...parse(fetched), metadataUrl };
    } catch {
      throw invalid('The document at `metadataUrl` is not valid IdP metadata');
    }
  }
  if (xml) {
    if (xml.length > 256 * 1024) throw invalid('`metadataXml` is too long');
    try {
      return parse(xml);
    } catch {
      throw invalid('`metadataXml` is not valid IdP metadata');
    }
  }
  const certificate = body.certificate?.trim();
  if (!certificate || certificate.length > 16 * 1024)
    throw invalid('`certificate` (or `metadataXml` or `metadataUrl`) is required');
  return {
    entityId: text(body, 'entityId', true)!,
    ssoUrl: httpsUrl(text(body, 'ssoUrl', true)!, 'ssoUrl'),
    certificates: [certificate],
  };
}

/**
 * The record for a registration form. `providerId` is optional (default: random).
 * @throws AuthError `SSO_PROVIDER_INVALID` (400) for missing or malformed settings (a `metadataUrl` that does not
 *   answer with IdP metadata included); `SSO_ISSUER_NOT_ALLOWED` (400) from `fetchSamlMetadata` for a refused
 *   `metadataUrl`; `FORBIDDEN` (403) for a role mapping above `managerRole`; `SSO_SAML_UNAVAILABLE` (501).
 */
export async function providerFromForm(input: {
  body: Record<string, string>;
  organizationId: string;
  roles: readonly string[];
  /** The registering manager's organization role: the mapping grants none above it. */
  managerRole?: string;
  cipher: TokenCipher;
  now: Date;
  parseSamlMetadata: ((xml: string) => StoredSamlConfig) | undefined;
  /** Fetches a `metadataUrl` (under the issuer policy): the document as text. */
  fetchSamlMetadata?: (url: string) => Promise<string>;
}): Promise<SsoProviderRecord> {
  const { body } = input;
  const id = body.providerId?.trim() || toHex(crypto.getRandomValues(new Uint8Array(8)));
  if (!PROVIDER_ID.test(id)) throw invalid('`providerId` must be lower-case letters, digits and "-" (at most 48)');
  const type = body.type ?? 'oidc';
  if (type !== 'oidc' && type !== 'saml') throw invalid('`type` must be oidc or saml');
  const name = text(body, 'name', false) ?? id;
  if (name.length > 100) throw invalid('`name` is too long');
  const domain = body.domain?.trim() ? parseDomain(body.domain) : null;
  const roleMapping = parseRoleMapping(body, input.roles, input.managerRole);
  const base = { id, organizationId: input.organizationId, name, domain, roleMapping, createdAt: input.now };
  if (type === 'saml')
    return {
      ...base,
      type,
      oidc: null,
      saml: await samlConfig(body, input.parseSamlMetadata, input.fetchSamlMetadata),
    };
  const issuer = httpsUrl(text(body, 'issuer', true)!, 'issuer');
  const clientSecret = text(body, 'clientSecret', true)!;
  const scope = text(body, 'scope', false);
  return {
    ...base,
    type,
    saml: null,
    oidc: {
      issuer,
      clientId: text(body, 'clientId', true)!,
      clientSecret: await input.cipher.encrypt(clientSecret, secretContext(id)),
      ...(scope ? { scope } : {}),
    },
  };
}

/** What the routes show of a provider: its settings without the client secret. */
export function providerView(p: SsoProviderRecord) {
  return {
    id: p.id,
    organizationId: p.organizationId,
    type: p.type,
    name: p.name,
    domain: p.domain,
    ...(p.oidc ? { oidc: { issuer: p.oidc.issuer, clientId: p.oidc.clientId, scope: p.oidc.scope ?? null } } : {}),
    ...(p.saml
      ? {
          saml: {
            entityId: p.saml.entityId,
            ssoUrl: p.saml.ssoUrl,
            ...(p.saml.metadataUrl ? { metadataUrl: p.saml.metadataUrl } : {}),
          },
        }
      : {}),
    roleMapping: p.roleMapping,
    createdAt: p.createdAt.toISOString(),
  };
}

/**
 * The organization role for a sign-in: the highest role the mapping gives a value of its attribute (a string or a
 * list of strings in the claims / attributes), else its `defaultRole`, else `fallback`. Never a role outside
 * `roles`.
 */
export function mappedRole(
  mapping: Partial<SsoRoleMapping> | null,
  attributes: Record<string, unknown>,
  roles: readonly string[],
  fallback: string,
): string {
  const defaultRole = mapping?.defaultRole && roles.includes(mapping.defaultRole) ? mapping.defaultRole : fallback;
  if (!mapping?.attribute || !mapping.values) return defaultRole;
  const raw = attributes[mapping.attribute];
  const granted = (Array.isArray(raw) ? raw : [raw])
    .filter((value): value is string => typeof value === 'string' && Object.hasOwn(mapping.values!, value))
    .map((value) => mapping.values![value]!)
    .filter((role) => roles.includes(role));
  // The highest of the granted roles (`roles` is highest first).
  return granted.sort((a, b) => roles.indexOf(a) - roles.indexOf(b))[0] ?? defaultRole;
}
