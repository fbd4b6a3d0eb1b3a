/**
 * Reading an identity provider's SAML 2.0 metadata document (SAML 2.0 Metadata §2.3.2, §2.4.3, §2.4.1.1).
 * @module
 */
import { SamlError } from './errors.js';
import type { SamlIdpConfig } from './types.js';
import { attribute, elements, parseXml, text } from './xml.js';

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const HTTP_REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** The one `EntityDescriptor` with an `IDPSSODescriptor`: the root, or the single such child of an `EntitiesDescriptor`. */
function idpEntity(doc: Document): Element | undefined {
  const candidates = elements(doc, '/md:EntityDescriptor | /md:EntitiesDescriptor/md:EntityDescriptor').filter(
    (entity) => elements(entity, 'md:IDPSSODescriptor').length > 0,
  );
  return candidates.length === 1 ? candidates[0] : undefined;
}

function isHttpUrl(value: string | undefined): value is string {
  if (value === undefined || !URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'https:' || protocol === 'http:';
}

/**
 * Reads the IdP's entity id, its SSO endpoint for the HTTP-Redirect binding and its signing certificates from a
 * SAML 2.0 metadata document (an `EntityDescriptor`, or an `EntitiesDescriptor` holding exactly one IdP).
 *
 * Only the `IDPSSODescriptor` that supports the SAML 2.0 protocol is read; certificates come from its
 * `KeyDescriptor`s whose `use` is `signing` or absent (Metadata §2.4.1.1), as base64 DER without whitespace. The
 * metadata's own signature is not checked: pass metadata obtained over a trusted channel (the app's configuration
 * or an HTTPS URL the organization owner gave).
 *
 * @param xml - The metadata document, as text.
 * @returns `{ entityId, ssoUrl, certificates }` for {@link createSamlServiceProvider}.
 * @throws {@link SamlError} `SAML_METADATA_INVALID` when the document is not XML, holds no or several IdPs, or the
 *   IdP has no entity id, no http(s) HTTP-Redirect `SingleSignOnService` or no signing certificate.
 * @example
 * ```ts
 * import { parseIdpMetadata } from './saml/index.js'; // within core/src/plugins/sso
 * const idp = parseIdpMetadata(await (await fetch('https://idp.example.com/metadata')).text());
 * // { entityId: 'https://idp.example.com', ssoUrl: 'https://idp.example.com/sso', certificates: ['MIIC...'] }
 * ```
 */
export function parseIdpMetadata(xml: string): SamlIdpConfig {
  const doc = parseXml(xml);
  const entity = doc && idpEntity(doc);
  const entityId = attribute(entity, 'entityID');
  const descriptor = entity
    ? elements(entity, 'md:IDPSSODescriptor').find((d) =>
        (attribute(d, 'protocolSupportEnumeration') ?? '').split(/\s+/).includes(PROTOCOL),
      )
    : undefined;
  if (!entityId || !descriptor) throw new SamlError('SAML_METADATA_INVALID');
  const ssoUrl = attribute(
    elements(descriptor, 'md:SingleSignOnService').find((s) => attribute(s, 'Binding') === HTTP_REDIRECT),
    'Location',
  );
  const certificates = elements(descriptor, 'md:KeyDescriptor')
    .filter((key) => (attribute(key, 'use') ?? 'signing') === 'signing')
    .flatMap((key) => elements(key, 'ds:KeyInfo/ds:X509Data/ds:X509Certificate'))
    .map((cert) => text(cert)?.replace(/\s+/g, ''))
    .filter((cert): cert is string => cert !== undefined);
  if (!isHttpUrl(ssoUrl) || certificates.length === 0) throw new SamlError('SAML_METADATA_INVALID');
  return { entityId, ssoUrl, certificates: [...new Set(certificates)] };
}
