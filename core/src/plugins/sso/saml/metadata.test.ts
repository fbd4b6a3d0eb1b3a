/**
 * `parseIdpMetadata` on metadata documents shaped like the ones identity providers publish, and the SP built from
 * them verifying that IdP's responses.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemorySamlStores, createSamlServiceProvider, parseIdpMetadata, SamlError } from './index.js';
import { createTestIdp, derBase64, makeTestKey, type TestKey } from './saml-test-support.js';

let signing: TestKey;
let encryption: TestKey;
beforeAll(async () => {
  [signing, encryption] = await Promise.all([makeTestKey(), makeTestKey()]);
});

/** Wraps a base64 DER the way metadata files often do: in lines, indented. */
const folded = (der: string): string => `\n          ${der.match(/.{1,64}/g)!.join('\n          ')}\n        `;

/** An IdP metadata document as IdPs publish it: namespaces on the root, several bindings, two keys, extras. */
function idpMetadata(entityId = 'https://idp.acme.example/metadata', options: { redirect?: boolean } = {}): string {
  const redirect = options.redirect ?? true;
  return `<?xml version="1.0" encoding="UTF-8"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#"
    entityID="${entityId}" validUntil="2040-01-01T00:00:00Z">
  <md:IDPSSODescriptor WantAuthnRequestsSigned="false"
      protocolSupportEnumeration="urn:oasis:names:tc:SAML:1.1:protocol urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${folded(derBase64(signing.certificate))}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:KeyDescriptor use="encryption">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${derBase64(encryption.certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.acme.example/slo"/>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress</md:NameIDFormat>
    <md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.acme.example/sso/post"/>
    ${redirect ? '<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.acme.example/sso/redirect"/>' : ''}
  </md:IDPSSODescriptor>
  <md:Organization>
    <md:OrganizationName xml:lang="en">Acme</md:OrganizationName>
    <md:OrganizationDisplayName xml:lang="en">Acme Corp</md:OrganizationDisplayName>
    <md:OrganizationURL xml:lang="en">https://acme.example</md:OrganizationURL>
  </md:Organization>
  <md:ContactPerson contactType="technical"><md:EmailAddress>mailto:it@acme.example</md:EmailAddress></md:ContactPerson>
</md:EntityDescriptor>`;
}

function code(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof SamlError ? error.code : 'not a SamlError';
  }
}

describe('parseIdpMetadata', () => {
  it('reads the entity id, the HTTP-Redirect SSO endpoint and only the signing certificate', () => {
    expect(parseIdpMetadata(idpMetadata())).toEqual({
      entityId: 'https://idp.acme.example/metadata',
      ssoUrl: 'https://idp.acme.example/sso/redirect',
      certificates: [derBase64(signing.certificate)],
    });
  });

  it('reads the one IdP of an EntitiesDescriptor', () => {
    const entities = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${idpMetadata().replace(
      /^<\?xml[^>]*>\s*/,
      '',
    )}</md:EntitiesDescriptor>`;
    expect(parseIdpMetadata(entities).entityId).toBe('https://idp.acme.example/metadata');
  });

  it('refuses what is not the metadata of exactly one usable IdP', () => {
    const body = (xml: string) => xml.replace(/^<\?xml[^>]*>\s*/, '');
    const twoIdps = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${body(idpMetadata())}${body(
      idpMetadata('https://idp2.acme.example'),
    )}</md:EntitiesDescriptor>`;
    const spOnly = `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://sp.example"><md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/></md:EntityDescriptor>`;
    const cases = {
      'not XML': '<md:EntityDescriptor',
      empty: '',
      'two IdPs': twoIdps,
      'an SP': spOnly,
      'no entity id': idpMetadata().replace(/entityID="[^"]*"/, ''),
      'no HTTP-Redirect endpoint': idpMetadata(undefined, { redirect: false }),
      'no signing certificate': idpMetadata().replace('use="signing"', 'use="encryption"'),
      'SAML 1.1 only': idpMetadata().replace(' urn:oasis:names:tc:SAML:2.0:protocol', ''),
      'a non-http endpoint': idpMetadata().replace('https://idp.acme.example/sso/redirect', 'javascript:alert(1)'),
      'another namespace': idpMetadata().replace(
        'xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"',
        'xmlns:md="urn:example:not-saml"',
      ),
    };
    for (const [name, xml] of Object.entries(cases))
      expect([name, code(() => parseIdpMetadata(xml))]).toEqual([name, 'SAML_METADATA_INVALID']);
  });

  it('gives a service provider that verifies the IdP’s responses with the certificate read', async () => {
    const now = () => Date.parse('2031-03-04T09:00:00Z');
    const sp = { entityId: 'https://app.test.example/sp', acsUrl: 'https://app.test.example/acs' };
    const idp = createTestIdp({ spEntityId: sp.entityId, acsUrl: sp.acsUrl, now, key: signing });
    const config = parseIdpMetadata(idpMetadata(idp.entityId));
    const service = createSamlServiceProvider({
      sp,
      idp: config,
      now,
      allowIdpInitiated: true,
      ...createMemorySamlStores(now),
    });
    expect((await service.validatePostResponse({ SAMLResponse: idp.respond(null) })).nameId).toBe('ada@example.com');

    const other = createTestIdp({ spEntityId: sp.entityId, acsUrl: sp.acsUrl, now, key: encryption });
    const refused = await service.validatePostResponse({ SAMLResponse: other.respond(null) }).catch((e: unknown) => e);
    expect((refused as SamlError).code).toBe('SAML_SIGNATURE_INVALID');
  });
});
