/**
 * The SAML service provider against a test IdP that signs with a throwaway key: the SP-initiated flow, and each
 * check of the response refusing what it is there to refuse (the attacks of issue #44 included).
 */
import { inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemorySamlStores, createSamlServiceProvider, SamlError, type SamlErrorCode } from './index.js';
import type { SamlReplayStore, SamlServiceProviderOptions } from './types.js';
import {
  assertionXml,
  createTestIdp,
  decode,
  derBase64,
  encode,
  makeTestKey,
  responseXml,
  signElement,
  type TestKey,
} from './saml-test-support.js';
import { attribute, elements, parseXml, text } from './xml.js';

const SP = {
  entityId: 'https://app.test.example/sso/saml/acme',
  acsUrl: 'https://app.test.example/sso/saml/acme/acs',
};
/** A fixed time far from the wall clock: every check must run on the injected clock. */
const START = Date.parse('2031-03-04T09:00:00Z');
const MINUTE = 60_000;

let key: TestKey;
let otherKey: TestKey;
beforeAll(async () => {
  [key, otherKey] = await Promise.all([makeTestKey(), makeTestKey()]);
});

/** A service provider and the test IdP on one movable clock; `remembered` records the replay store's calls. */
function setup(options: Partial<SamlServiceProviderOptions> = {}) {
  const clock = { ms: START };
  const now = () => clock.ms;
  const idp = createTestIdp({ spEntityId: SP.entityId, acsUrl: SP.acsUrl, now, key });
  const stores = createMemorySamlStores(now);
  const remembered: Array<{ id: string; untilMs: number }> = [];
  const replay: SamlReplayStore = {
    remember: (id, untilMs) => {
      remembered.push({ id, untilMs });
      return stores.replay.remember(id, untilMs);
    },
  };
  const sp = createSamlServiceProvider({
    sp: SP,
    idp: { entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificates: [key.certificate] },
    now,
    replay,
    requests: stores.requests,
    ...options,
  });
  return {
    clock,
    idp,
    sp,
    remembered,
    requestId: async () => (await sp.authnRequestUrl({ relayState: 'r' })).requestId,
  };
}

/** The code of the SamlError `promise` rejects with; fails when it resolves or rejects with something else. */
async function refusal(promise: Promise<unknown>): Promise<SamlErrorCode> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SamlError);
  return (error as SamlError).code;
}

describe('SP-initiated sign-in', () => {
  it('sends an AuthnRequest by HTTP-Redirect and accepts the signed response to it', async () => {
    const { sp, idp } = setup();
    const { url, requestId } = await sp.authnRequestUrl({ relayState: 'opaque-state' });
    const redirect = new URL(url);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(idp.ssoUrl);
    expect(redirect.searchParams.get('RelayState')).toBe('opaque-state');
    const request = parseXml(
      inflateRawSync(Buffer.from(redirect.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8'),
    )!;
    const authnRequest = elements(request, '/samlp:AuthnRequest')[0]!;
    expect(attribute(authnRequest, 'ID')).toBe(requestId);
    expect(attribute(authnRequest, 'AssertionConsumerServiceURL')).toBe(SP.acsUrl);
    expect(attribute(authnRequest, 'ProtocolBinding')).toBe('urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST');
    expect(attribute(authnRequest, 'Destination')).toBe(idp.ssoUrl);
    expect(text(elements(authnRequest, 'saml:Issuer')[0])).toBe(SP.entityId);

    const profile = await sp.validatePostResponse({ SAMLResponse: idp.respond(requestId), RelayState: 'opaque-state' });
    expect(profile).toEqual({
      issuer: idp.entityId,
      nameId: 'ada@example.com',
      nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      email: 'ada@example.com',
      attributes: { role: ['admin'], displayName: ['Ada Lovelace'] },
      sessionIndex: '_session1',
      assertionId: expect.stringMatching(/^_assertion/),
      notOnOrAfterMs: START + 5 * MINUTE,
      inResponseTo: requestId,
    });
  });

  it('accepts a response signed as a whole as well as in its assertion', async () => {
    const { sp, idp, requestId } = setup();
    const profile = await sp.validatePostResponse({
      SAMLResponse: idp.respond(await requestId(), { signResponse: true }),
    });
    expect(profile.nameId).toBe('ada@example.com');
  });

  it('reads an assertion whose namespaces are declared on the response, signed alone or with the response', async () => {
    const SAML_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
    for (const signResponse of [false, true]) {
      const { sp, idp, requestId } = setup();
      const id = await requestId();
      const parts = idp.assertionParts(id);
      const envelope = idp.responseParts(id);
      let xml = responseXml(envelope, [assertionXml(parts).replace(` xmlns:saml="${SAML_NS}"`, '')])
        .replace('<samlp:Response ', `<samlp:Response xmlns:saml="${SAML_NS}" `)
        .replace(`<saml:Issuer xmlns:saml="${SAML_NS}">`, '<saml:Issuer>');
      expect(xml.match(/xmlns:saml=/g)).toHaveLength(1);
      xml = signElement(xml, parts.id, key);
      if (signResponse) xml = signElement(xml, envelope.id, key);
      const profile = await sp.validatePostResponse({ SAMLResponse: encode(xml) });
      expect([signResponse, profile.nameId, profile.attributes.role]).toEqual([
        signResponse,
        'ada@example.com',
        ['admin'],
      ]);
    }
  });

  it('takes the email from a mail attribute when the NameID is not an email address', async () => {
    const { sp, idp, requestId } = setup();
    const profile = await sp.validatePostResponse({
      SAMLResponse: idp.respond(await requestId(), {
        assertion: {
          nameId: 'f81d4fae-7dec',
          nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
          attributes: { mail: ['ada@example.com', 'ada@old.example.com'], groups: ['a', 'b'] },
        },
      }),
    });
    expect(profile.nameId).toBe('f81d4fae-7dec');
    expect(profile.email).toBe('ada@example.com');
    expect(profile.attributes).toEqual({ mail: ['ada@example.com', 'ada@old.example.com'], groups: ['a', 'b'] });
  });

  it('accepts the IdP certificate as base64 DER, as metadata carries it', async () => {
    const { idp } = setup();
    const stores = createMemorySamlStores(() => START);
    const sp = createSamlServiceProvider({
      sp: SP,
      idp: {
        entityId: idp.entityId,
        ssoUrl: idp.ssoUrl,
        certificates: [derBase64(otherKey.certificate), derBase64(key.certificate)],
      },
      now: () => START,
      allowIdpInitiated: true,
      ...stores,
    });
    expect((await sp.validatePostResponse({ SAMLResponse: idp.respond(null) })).nameId).toBe('ada@example.com');
  });
});

describe('signature (SAML 2.0 Profiles §4.1.4.5, Core §5)', () => {
  it('refuses a response whose assertion is signed by another key', async () => {
    const { sp, idp, requestId } = setup();
    const id = await requestId();
    const assertion = idp.signedAssertion(idp.assertionParts(id), otherKey);
    const xml = responseXml(idp.responseParts(id), [assertion]);
    expect(await refusal(sp.validatePostResponse({ SAMLResponse: encode(xml) }))).toBe('SAML_SIGNATURE_INVALID');
  });

  it('refuses an unsigned assertion inside a signed response', async () => {
    const { sp, idp, requestId } = setup();
    const id = await requestId();
    const envelope = idp.responseParts(id);
    const signed = signElement(responseXml(envelope, [assertionXml(idp.assertionParts(id))]), envelope.id, key);
    expect(await refusal(sp.validatePostResponse({ SAMLResponse: encode(signed) }))).toBe('SAML_SIGNATURE_INVALID');
  });

  it('refuses an assertion altered after signing', async () => {
    const { sp, idp, requestId } = setup();
    const xml = decode(idp.respond(await requestId())).replace('ada@example.com', 'eve@example.com');
    expect(await refusal(sp.validatePostResponse({ SAMLResponse: encode(xml) }))).toBe('SAML_SIGNATURE_INVALID');
  });

  it('refuses a signed assertion whose issuer is not the IdP, and a response from another issuer', async () => {
    const { sp, idp, requestId } = setup();
    expect(
      await refusal(
        sp.validatePostResponse({
          SAMLResponse: idp.respond(await requestId(), { assertion: { issuer: 'https://other-idp.example' } }),
        }),
      ),
    ).toBe('SAML_SIGNATURE_INVALID');
    expect(
      await refusal(
        sp.validatePostResponse({
          SAMLResponse: idp.respond(await requestId(), { response: { issuer: 'https://other-idp.example' } }),
        }),
      ),
    ).toBe('SAML_SIGNATURE_INVALID');
  });

  describe('XML signature wrapping', () => {
    /** A genuine signed assertion for Ada and an unsigned one for Eve, both answering the same request. */
    async function genuineAndEvil() {
      const s = setup();
      const id = await s.requestId();
      const genuine = s.idp.signedAssertion(s.idp.assertionParts(id));
      const evil = assertionXml(s.idp.assertionParts(id, { nameId: 'eve@example.com' }));
      return { ...s, id, genuine, evil };
    }

    it('refuses an unsigned assertion placed before the signed one', async () => {
      const { sp, idp, id, genuine, evil, remembered } = await genuineAndEvil();
      const xml = responseXml(idp.responseParts(id), [evil, genuine]);
      expect(await refusal(sp.validatePostResponse({ SAMLResponse: encode(xml) }))).toBe('SAML_SIGNATURE_INVALID');
      expect(remembered).toEqual([]);
    });

    it('refuses an unsigned assertion that carries the signed one inside it', async () => {
      const { sp, idp, id, genuine, evil, remembered } = await genuineAndEvil();
      const wrapping = evil.replace('</saml:Subject>', `</saml:Subject><saml:Advice>${genuine}</saml:Advice>`);
      const xml = responseXml(idp.responseParts(id), [wrapping]);
      expect(await refusal(sp.validatePostResponse({ SAMLResponse: encode(xml) }))).toBe('SAML_SIGNATURE_INVALID');
      expect(remembered).toEqual([]);
    });

    it('refuses an unsigned assertion beside the signed one inside a signed response', async () => {
      const { sp, idp, id, genuine, evil } = await genuineAndEvil();
      const envelope = idp.responseParts(id);
      const signed = signElement(responseXml(envelope, [genuine]), envelope.id, key);
      const xml = signed.replace('<saml:Assertion', `${evil}<saml:Assertion`);
      expect(xml.indexOf('eve@example.com')).toBeLessThan(xml.indexOf('ada@example.com'));
      expect(await refusal(sp.validatePostResponse({ SAMLResponse: encode(xml) }))).toBe('SAML_SIGNATURE_INVALID');
    });
  });

  it('reads the whole NameID when a comment is injected into it after signing, never the part before it', async () => {
    const { sp, idp, requestId } = setup();
    const xml = decode(idp.respond(await requestId(), { assertion: { nameId: 'user@evil.com.example.com' } })).replace(
      'user@evil.com.example.com',
      'user@evil.com<!---->.example.com',
    );
    expect(xml).toContain('user@evil.com<!---->.example.com');
    const profile = await sp.validatePostResponse({ SAMLResponse: encode(xml) });
    expect(profile.nameId).toBe('user@evil.com.example.com');
    expect(profile.email).toBe('user@evil.com.example.com');
  });
});

describe('audience and recipient (Core §2.5.1.4, Profiles §4.1.4.2–3)', () => {
  it('refuses an assertion for another SP', async () => {
    const { sp, idp, requestId } = setup();
    const SAMLResponse = idp.respond(await requestId(), { assertion: { audience: 'https://other-sp.example' } });
    expect(await refusal(sp.validatePostResponse({ SAMLResponse }))).toBe('SAML_AUDIENCE_MISMATCH');
  });

  it('refuses a bearer confirmation for another Recipient', async () => {
    const { sp, idp, requestId } = setup();
    const SAMLResponse = idp.respond(await requestId(), { assertion: { recipient: 'https://other-sp.example/acs' } });
    expect(await refusal(sp.validatePostResponse({ SAMLResponse }))).toBe('SAML_RECIPIENT_MISMATCH');
  });

  it('refuses a response whose Destination is another endpoint', async () => {
    const { sp, idp, requestId } = setup();
    const SAMLResponse = idp.respond(await requestId(), { response: { destination: 'https://other-sp.example/acs' } });
    expect(await refusal(sp.validatePostResponse({ SAMLResponse }))).toBe('SAML_RECIPIENT_MISMATCH');
  });
  it('refuses a signed response that does not name its Destination', async () => {
    const { sp, idp, requestId } = setup();
    const SAMLResponse = idp.respond(await requestId(), { response: { destination: null }, signResponse: true });
    expect(await refusal(sp.validatePostResponse({ SAMLResponse }))).toBe('SAML_RECIPIENT_MISMATCH');
    const unsigned = idp.respond(await requestId(), { response: { destination: null } });
    expect((await sp.validatePostResponse({ SAMLResponse: unsigned })).nameId).toBe('ada@example.com');
  });
});

describe('validity window on the injected clock (Core §2.5.1.2, bounded skew)', () => {
  it('accepts within the skew after NotOnOrAfter and refuses past it', async () => {
    const late = setup();
    late.clock.ms = START + 5 * MINUTE + 59_000;
    const id = await late.requestId();
    late.clock.ms = START;
    const SAMLResponse = late.idp.respond(id);
    late.clock.ms = START + 5 * MINUTE + 59_000;
    expect((await late.sp.validatePostResponse({ SAMLResponse })).nameId).toBe('ada@example.com');

    const expired = setup();
    const SAMLResponse2 = expired.idp.respond(await expired.requestId());
    expired.clock.ms = START + 6 * MINUTE;
    expect(await refusal(expired.sp.validatePostResponse({ SAMLResponse: SAMLResponse2 }))).toBe('SAML_EXPIRED');
  });

  it('refuses an expired bearer confirmation inside unexpired conditions', async () => {
    const { sp, idp, requestId } = setup();
    const SAMLResponse = idp.respond(await requestId(), { assertion: { subjectNotOnOrAfter: START - 2 * MINUTE } });
    expect(await refusal(sp.validatePostResponse({ SAMLResponse }))).toBe('SAML_EXPIRED');
  });

  it('refuses an assertion not valid yet beyond the skew, and accepts one within it', async () => {
    const { sp, idp, requestId } = setup();
    const early = idp.respond(await requestId(), { assertion: { notBefore: START + 2 * MINUTE } });
    expect(await refusal(sp.validatePostResponse({ SAMLResponse: early }))).toBe('SAML_NOT_YET_VALID');
    const withinSkew = idp.respond(await requestId(), { assertion: { notBefore: START + 30_000 } });
    expect((await sp.validatePostResponse({ SAMLResponse: withinSkew })).nameId).toBe('ada@example.com');
  });

  it('uses clockSkewSeconds', async () => {
    const { sp, idp, requestId } = setup({ clockSkewSeconds: 0 });
    const early = idp.respond(await requestId(), { assertion: { notBefore: START + 30_000 } });
    expect(await refusal(sp.validatePostResponse({ SAMLResponse: early }))).toBe('SAML_NOT_YET_VALID');
  });
});

describe('InResponseTo and replay (Profiles §4.1.4.2, §4.1.4.5)', () => {
  it('refuses a replayed assertion, remembered until it expires', async () => {
    const { sp, idp, remembered } = setup({ allowIdpInitiated: true });
    const SAMLResponse = idp.respond(null);
    const first = await sp.validatePostResponse({ SAMLResponse });
    expect(await refusal(sp.validatePostResponse({ SAMLResponse }))).toBe('SAML_REPLAYED');
    expect(remembered[0]).toEqual({ id: first.assertionId, untilMs: START + 5 * MINUTE + MINUTE });
  });

  it('refuses a replayed SP-initiated response as a replay', async () => {
    const { sp, idp, requestId } = setup();
    const SAMLResponse = idp.respond(await requestId());
    await sp.validatePostResponse({ SAMLResponse });
    expect(await refusal(sp.validatePostResponse({ SAMLResponse }))).toBe('SAML_REPLAYED');
  });

  it('refuses a response to a request this SP did not make', async () => {
    const { sp, idp } = setup();
    const SAMLResponse = idp.respond('_never-sent');
    expect(await refusal(sp.validatePostResponse({ SAMLResponse }))).toBe('SAML_IN_RESPONSE_TO_MISMATCH');
  });

  it('refuses a second response to one request (the request id is single use)', async () => {
    const { sp, idp, requestId } = setup();
    const id = await requestId();
    await sp.validatePostResponse({ SAMLResponse: idp.respond(id) });
    expect(await refusal(sp.validatePostResponse({ SAMLResponse: idp.respond(id) }))).toBe(
      'SAML_IN_RESPONSE_TO_MISMATCH',
    );
  });

  it('refuses a request id past its time', async () => {
    const { sp, idp, requestId, clock } = setup({ requestTtlSeconds: 60 });
    const id = await requestId();
    clock.ms = START + 2 * MINUTE;
    const SAMLResponse = idp.respond(id);
    expect(await refusal(sp.validatePostResponse({ SAMLResponse }))).toBe('SAML_IN_RESPONSE_TO_MISMATCH');
  });

  it('refuses a response whose InResponseTo differs from the signed one, or is not signed at all', async () => {
    const { sp, idp, requestId } = setup();
    const [a, b] = [await requestId(), await requestId()];
    const swapped = idp.respond(a, { response: { inResponseTo: b } });
    expect(await refusal(sp.validatePostResponse({ SAMLResponse: swapped }))).toBe('SAML_IN_RESPONSE_TO_MISMATCH');
    const unsigned = idp.respond(null, { response: { inResponseTo: b } });
    expect(await refusal(sp.validatePostResponse({ SAMLResponse: unsigned }))).toBe('SAML_IN_RESPONSE_TO_MISMATCH');
  });

  it('refuses an unsolicited response by default and accepts it when IdP-initiated sign-in is allowed', async () => {
    const off = setup();
    expect(await refusal(off.sp.validatePostResponse({ SAMLResponse: off.idp.respond(null) }))).toBe(
      'SAML_IDP_INITIATED_DISABLED',
    );
    const on = setup({ allowIdpInitiated: true });
    const profile = await on.sp.validatePostResponse({ SAMLResponse: on.idp.respond(null) });
    expect(profile.nameId).toBe('ada@example.com');
    expect(profile.inResponseTo).toBeUndefined();
  });
});

describe('malformed responses', () => {
  it('refuses a missing, non-XML or non-SAML body, and a non-success status, without echoing it', async () => {
    const { sp, idp, requestId } = setup();
    const failed = idp.respond(await requestId(), {
      response: { status: 'urn:oasis:names:tc:SAML:2.0:status:Requester' },
    });
    for (const SAMLResponse of [undefined, '', encode('<not-xml'), encode('<a>ada@example.com</a>'), failed]) {
      const error = await sp.validatePostResponse({ SAMLResponse }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SamlError);
      expect((error as SamlError).code).toBe('SAML_RESPONSE_INVALID');
      expect((error as SamlError).message).not.toMatch(/<|ada@|Response/);
    }
  });
});

describe('SP metadata', () => {
  it('names the entity id and the ACS URL with the HTTP-POST binding, and asks for signed assertions', () => {
    const { sp } = setup();
    const doc = parseXml(sp.metadataXml())!;
    const entity = elements(doc, '/md:EntityDescriptor')[0];
    expect(attribute(entity, 'entityID')).toBe(SP.entityId);
    const descriptor = elements(entity!, 'md:SPSSODescriptor')[0];
    expect(attribute(descriptor, 'WantAssertionsSigned')).toBe('true');
    const acs = elements(descriptor!, 'md:AssertionConsumerService');
    expect(acs.map((e) => [attribute(e, 'Binding'), attribute(e, 'Location')])).toEqual([
      ['urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', SP.acsUrl],
    ]);
  });
});
