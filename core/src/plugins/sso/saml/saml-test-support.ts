/**
 * Test support: an identity provider that issues SAML 2.0 responses signed with a throwaway key and a self-signed
 * certificate made for the test run (node:crypto keys, `selfsigned` certificate, `xml-crypto` signatures: the
 * signer @node-saml/node-saml itself uses). Each response is built from parts a test can bend one at a time.
 * @module
 */
import {
  X509Certificate,
  constants,
  createCipheriv,
  generateKeyPairSync,
  publicEncrypt,
  randomBytes,
} from 'node:crypto';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

const SAML = 'urn:oasis:names:tc:SAML:2.0:assertion';
const SAMLP = 'urn:oasis:names:tc:SAML:2.0:protocol';
export const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const XENC = 'http://www.w3.org/2001/04/xmlenc#';
const DSIG = 'http://www.w3.org/2000/09/xmldsig#';

/**
 * Encrypts a (signed) assertion to `certificate` as an IdP does (XML Encryption 1.1): the assertion under a fresh
 * AES-256 key (GCM: `iv ‖ ciphertext ‖ tag`, or CBC with `content: 'aes-256-cbc'`: `iv ‖ ciphertext`), that key
 * under RSA-OAEP (MGF1, SHA-1) to the certificate's key.
 */
export function encryptAssertion(
  assertion: string,
  certificate: string,
  content: 'aes-256-gcm' | 'aes-256-cbc' = 'aes-256-gcm',
): string {
  const key = randomBytes(32);
  const gcm = content === 'aes-256-gcm';
  const iv = randomBytes(gcm ? 12 : 16);
  const cipher = createCipheriv(content, key, iv);
  const body = Buffer.concat([cipher.update(assertion, 'utf8'), cipher.final()]);
  const sealed = Buffer.concat([
    iv,
    body,
    gcm ? (cipher as ReturnType<typeof createCipheriv> & { getAuthTag(): Buffer }).getAuthTag() : Buffer.alloc(0),
  ]);
  const wrapped = publicEncrypt(
    { key: new X509Certificate(certificate).publicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
    key,
  );
  return (
    `<saml:EncryptedAssertion xmlns:saml="${SAML}">` +
    `<xenc:EncryptedData xmlns:xenc="${XENC}" Type="${XENC}Element">` +
    `<xenc:EncryptionMethod Algorithm="${gcm ? 'http://www.w3.org/2009/xmlenc11#aes256-gcm' : `${XENC}aes256-cbc`}"/>` +
    `<ds:KeyInfo xmlns:ds="${DSIG}"><xenc:EncryptedKey>` +
    `<xenc:EncryptionMethod Algorithm="${XENC}rsa-oaep-mgf1p"/>` +
    `<xenc:CipherData><xenc:CipherValue>${wrapped.toString('base64')}</xenc:CipherValue></xenc:CipherData>` +
    `</xenc:EncryptedKey></ds:KeyInfo>` +
    `<xenc:CipherData><xenc:CipherValue>${sealed.toString('base64')}</xenc:CipherValue></xenc:CipherData>` +
    `</xenc:EncryptedData></saml:EncryptedAssertion>`
  );
}

/** A signing key and its self-signed certificate (PEM). */
export interface TestKey {
  privateKey: string;
  certificate: string;
}

/** A fresh RSA key (node:crypto) and a self-signed certificate for it. */
export async function makeTestKey(): Promise<TestKey> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const pems = await generate([{ name: 'commonName', value: 'test-idp.example' }], {
    keyPair: { privateKey, publicKey },
    algorithm: 'sha256',
  });
  return { privateKey, certificate: pems.cert };
}

/** The certificate's base64 DER (the form metadata carries). */
export function derBase64(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

/** Escapes text for an XML attribute or element. */
function esc(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Signs the element with `id` in `xml` (enveloped, exclusive C14N, RSA-SHA256), the signature after its Issuer. */
export function signElement(xml: string, id: string, key: TestKey): string {
  const sig = new SignedXml({
    privateKey: key.privateKey,
    publicCert: key.certificate,
    canonicalizationAlgorithm: EXC_C14N,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
  sig.addReference({
    xpath: `//*[@ID='${id}']`,
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', EXC_C14N],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: `//*[@ID='${id}']/*[local-name(.)='Issuer']`, action: 'after' },
  });
  return sig.getSignedXml();
}

/** The parts of an assertion; times in epoch ms. `undefined` leaves the default, `null` leaves the part out. */
export interface AssertionParts {
  id: string;
  issuer: string;
  nameId: string;
  nameIdFormat: string | null;
  audience: string;
  recipient: string;
  inResponseTo: string | null;
  issuedAt: number;
  notBefore: number | null;
  notOnOrAfter: number;
  subjectNotOnOrAfter: number;
  attributes: Record<string, string[]>;
  sessionIndex: string;
}

/** Builds an assertion (standalone, its namespaces declared on itself) from its parts, unsigned. */
export function assertionXml(p: AssertionParts): string {
  const format = p.nameIdFormat === null ? '' : ` Format="${esc(p.nameIdFormat)}"`;
  const irt = p.inResponseTo === null ? '' : ` InResponseTo="${esc(p.inResponseTo)}"`;
  const notBefore = p.notBefore === null ? '' : ` NotBefore="${iso(p.notBefore)}"`;
  const attributes = Object.entries(p.attributes)
    .map(
      ([name, values]) =>
        `<saml:Attribute Name="${esc(name)}">${values
          .map((v) => `<saml:AttributeValue>${esc(v)}</saml:AttributeValue>`)
          .join('')}</saml:Attribute>`,
    )
    .join('');
  return (
    `<saml:Assertion xmlns:saml="${SAML}" ID="${esc(p.id)}" Version="2.0" IssueInstant="${iso(p.issuedAt)}">` +
    `<saml:Issuer>${esc(p.issuer)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID${format}>${esc(p.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData${irt} NotOnOrAfter="${iso(p.subjectNotOnOrAfter)}" Recipient="${esc(p.recipient)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions${notBefore} NotOnOrAfter="${iso(p.notOnOrAfter)}">` +
    `<saml:AudienceRestriction><saml:Audience>${esc(p.audience)}</saml:Audience></saml:AudienceRestriction>` +
    `</saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${iso(p.issuedAt)}" SessionIndex="${esc(p.sessionIndex)}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>` +
    `</saml:AuthnStatement>` +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    `</saml:Assertion>`
  );
}

/** The parts of the response envelope. */
export interface ResponseParts {
  id: string;
  issuer: string | null;
  destination: string | null;
  inResponseTo: string | null;
  issuedAt: number;
  status: string;
}

/** Wraps `assertions` (XML, signed or not, in this order) in a response envelope, unsigned. */
export function responseXml(p: ResponseParts, assertions: string[]): string {
  const destination = p.destination === null ? '' : ` Destination="${esc(p.destination)}"`;
  const irt = p.inResponseTo === null ? '' : ` InResponseTo="${esc(p.inResponseTo)}"`;
  const issuer = p.issuer === null ? '' : `<saml:Issuer xmlns:saml="${SAML}">${esc(p.issuer)}</saml:Issuer>`;
  return (
    `<samlp:Response xmlns:samlp="${SAMLP}" ID="${esc(p.id)}" Version="2.0" IssueInstant="${iso(p.issuedAt)}"${destination}${irt}>` +
    issuer +
    `<samlp:Status><samlp:StatusCode Value="${esc(p.status)}"/></samlp:Status>` +
    assertions.join('') +
    `</samlp:Response>`
  );
}

/** What {@link createTestIdp} is told about the SP and the clock. */
export interface TestIdpOptions {
  spEntityId: string;
  acsUrl: string;
  now: () => number;
  key: TestKey;
}

/**
 * The test IdP: `entityId`, `ssoUrl`, its key, and `respond()` that builds a response to a request id (or
 * unsolicited with `inResponseTo: null`), its assertion signed unless `signAssertion: false`, base64 for the POST.
 */
export function createTestIdp(o: TestIdpOptions) {
  const entityId = 'https://idp.test.example/metadata';
  let serial = 0;
  const nextId = (prefix: string): string => `_${prefix}${(++serial).toString().padStart(4, '0')}`;

  function assertionParts(inResponseTo: string | null, parts: Partial<AssertionParts> = {}): AssertionParts {
    const now = o.now();
    return {
      id: nextId('assertion'),
      issuer: entityId,
      nameId: 'ada@example.com',
      nameIdFormat: EMAIL_FORMAT,
      audience: o.spEntityId,
      recipient: o.acsUrl,
      inResponseTo,
      issuedAt: now,
      notBefore: now - 1000,
      notOnOrAfter: now + 5 * 60_000,
      subjectNotOnOrAfter: now + 5 * 60_000,
      attributes: { role: ['admin'], displayName: ['Ada Lovelace'] },
      sessionIndex: '_session1',
      ...parts,
    };
  }

  return {
    entityId,
    ssoUrl: 'https://idp.test.example/sso',
    key: o.key,
    nextId,
    assertionParts,
    /** A signed assertion (by `key`, default the IdP's). */
    signedAssertion(parts: AssertionParts, key: TestKey = o.key): string {
      return signElement(assertionXml(parts), parts.id, key);
    },
    responseParts(inResponseTo: string | null, parts: Partial<ResponseParts> = {}): ResponseParts {
      return {
        id: nextId('response'),
        issuer: entityId,
        destination: o.acsUrl,
        inResponseTo,
        issuedAt: o.now(),
        status: 'urn:oasis:names:tc:SAML:2.0:status:Success',
        ...parts,
      };
    },
    /** A whole response to `inResponseTo`, its assertion signed, as the POST's base64 `SAMLResponse`. */
    respond(
      inResponseTo: string | null,
      options: {
        assertion?: Partial<AssertionParts>;
        response?: Partial<ResponseParts>;
        signResponse?: boolean;
        /** Encrypt the signed assertion to this certificate (PEM). */
        encryptTo?: string;
      } = {},
    ): string {
      const signed = this.signedAssertion(assertionParts(inResponseTo, options.assertion));
      const assertion = options.encryptTo ? encryptAssertion(signed, options.encryptTo) : signed;
      const envelope = this.responseParts(inResponseTo, options.response);
      const xml = responseXml(envelope, [assertion]);
      return encode(options.signResponse ? signElement(xml, envelope.id, o.key) : xml);
    },
  };
}

/** Base64 of the XML, as the HTTP-POST binding carries it. */
export function encode(xml: string): string {
  return Buffer.from(xml, 'utf8').toString('base64');
}

/** The XML of a base64 `SAMLResponse`. */
export function decode(samlResponse: string): string {
  return Buffer.from(samlResponse, 'base64').toString('utf8');
}
