/**
 * The checks made around @node-saml/node-saml's output: on the assertion whose signature it verified, and on the
 * response envelope it was found in (SAML 2.0 Core §2.5, §3.2.2; Profiles §4.1.4.2, §4.1.4.3).
 * @module
 */
import { SamlError, type SamlErrorCode } from './errors.js';
import { attribute, elements, parseXml, text } from './xml.js';

const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
/** Attribute names that carry an email, in the order they are read: common, LDAP/eduPerson OID, WS-Federation. */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];

/** What the checks need: this SP, the trusted IdP's entity id, the time and the tolerated skew. */
export interface AssertionContext {
  spAcsUrl: string;
  idpEntityId: string;
  nowMs: number;
  skewMs: number;
}

/** What the checks read from a signed assertion. */
export interface CheckedAssertion {
  issuer: string;
  assertionId: string;
  nameId: string;
  nameIdFormat?: string;
  email?: string;
  attributes: Record<string, string[]>;
  sessionIndex?: string;
  notOnOrAfterMs: number;
  /** The signed `InResponseTo` of the bearer confirmation, when the response is solicited. */
  inResponseTo?: string;
}

function fail(code: SamlErrorCode): never {
  throw new SamlError(code);
}

/** An `xs:dateTime` attribute in epoch ms, `undefined` when absent; a value that is not a date is refused. */
function time(element: Element | undefined, name: string): number | undefined {
  const value = attribute(element, name);
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? fail('SAML_RESPONSE_INVALID') : ms;
}

/** The validity window check of Core §2.5.1.2, with the skew on both ends. */
function timeError(ctx: AssertionContext, notBefore?: number, notOnOrAfter?: number): SamlErrorCode | undefined {
  if (notBefore !== undefined && ctx.nowMs + ctx.skewMs < notBefore) return 'SAML_NOT_YET_VALID';
  if (notOnOrAfter !== undefined && ctx.nowMs - ctx.skewMs >= notOnOrAfter) return 'SAML_EXPIRED';
  return undefined;
}

/**
 * The response envelope, read before the signature is verified: a SAML `Response` (Core §3.2.2) with a `Success`
 * status (§3.2.2.2). Anything else is refused as malformed, whatever it carries.
 */
export function readEnvelope(responseXml: string): Element {
  const doc = parseXml(responseXml);
  const response = doc && elements(doc, '/samlp:Response')[0];
  if (!response) fail('SAML_RESPONSE_INVALID');
  const status = attribute(elements(response, 'samlp:Status/samlp:StatusCode')[0], 'Value');
  if (status !== SUCCESS) fail('SAML_RESPONSE_INVALID');
  return response;
}

/**
 * Whether the response carries its assertion encrypted: exactly one `EncryptedAssertion` and no plain `Assertion`
 * child (Core §2.3.4), for `requireEncryptedAssertions`.
 */
export function isEncrypted(response: Element): boolean {
  return (
    elements(response, 'saml:EncryptedAssertion').length === 1 && elements(response, 'saml:Assertion').length === 0
  );
}

/** Content encryption an `EncryptedAssertion` may use: AES-GCM only (XML Encryption 1.1 §5.2.4). */
const CONTENT_ALGORITHMS = new Set([
  'http://www.w3.org/2009/xmlenc11#aes128-gcm',
  'http://www.w3.org/2009/xmlenc11#aes256-gcm',
]);
/** Key transport it may use: RSA-OAEP only (XML Encryption 1.1 §5.5.2). */
const KEY_ALGORITHMS = new Set([
  'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p',
  'http://www.w3.org/2009/xmlenc11#rsa-oaep',
]);

/**
 * Refuses an `EncryptedAssertion` that names any algorithm but AES-GCM for its content and RSA-OAEP for its key
 * (`SAML_RESPONSE_INVALID`), before anything is decrypted: AES-CBC content can be decrypted by an attacker who
 * tells padding or parse failures apart (Jager and Somorovsky, "How to Break XML Encryption", CCS 2011), and
 * RSA PKCS#1 v1.5 key transport falls to Bleichenbacher's attack. Every `EncryptionMethod` is checked, found by
 * local name as the decrypting library finds them.
 */
export function checkEncryptionAlgorithms(response: Element): void {
  for (const encrypted of elements(response, 'saml:EncryptedAssertion')) {
    for (const method of elements(encrypted, ".//*[local-name()='EncryptionMethod']")) {
      const parent = (method.parentNode as Element | null)?.localName;
      const allowed =
        parent === 'EncryptedData' ? CONTENT_ALGORITHMS : parent === 'EncryptedKey' ? KEY_ALGORITHMS : null;
      if (!allowed?.has(attribute(method, 'Algorithm') ?? '')) fail('SAML_RESPONSE_INVALID');
    }
  }
}

/**
 * The parts of the envelope the assertion's signature does not cover: an `Issuer` (if any) that is the IdP
 * (Profiles §4.1.4.2) and a `Destination` that is this ACS URL (Core §3.2.2), present when the response is signed.
 * Returns its `InResponseTo`.
 */
export function checkEnvelope(response: Element, ctx: AssertionContext): { inResponseTo?: string } {
  const issuer = elements(response, 'saml:Issuer')[0];
  if (issuer && text(issuer) !== ctx.idpEntityId) fail('SAML_SIGNATURE_INVALID');
  const destination = attribute(response, 'Destination');
  const signed = elements(response, 'ds:Signature').length > 0; // a signed response must name it (Bindings §3.5.5.2)
  if (destination === undefined ? signed : destination !== ctx.spAcsUrl) fail('SAML_RECIPIENT_MISMATCH');
  return { inResponseTo: attribute(response, 'InResponseTo') };
}

/**
 * The first bearer `SubjectConfirmationData` that is for this ACS URL and within its time (Profiles §4.1.4.2), or
 * the refusal of the first one when none is.
 */
function bearerConfirmation(subject: Element, ctx: AssertionContext): { data: Element; notOnOrAfter: number } {
  const candidates = elements(subject, 'saml:SubjectConfirmation')
    .filter((confirmation) => attribute(confirmation, 'Method') === BEARER)
    .map((confirmation) => elements(confirmation, 'saml:SubjectConfirmationData')[0]);
  let firstError: SamlErrorCode = 'SAML_RESPONSE_INVALID';
  for (const [index, data] of candidates.entries()) {
    const notOnOrAfter = time(data, 'NotOnOrAfter');
    const error: SamlErrorCode | undefined =
      data === undefined || notOnOrAfter === undefined
        ? 'SAML_RESPONSE_INVALID'
        : attribute(data, 'Recipient') !== ctx.spAcsUrl
          ? 'SAML_RECIPIENT_MISMATCH'
          : timeError(ctx, time(data, 'NotBefore'), notOnOrAfter);
    if (error === undefined) return { data: data!, notOnOrAfter: notOnOrAfter! };
    if (index === 0) firstError = error;
  }
  return fail(firstError);
}

function attributesOf(assertion: Element): Record<string, string[]> {
  const attributes: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const attr of elements(assertion, 'saml:AttributeStatement/saml:Attribute')) {
    const name = attribute(attr, 'Name');
    if (!name) continue;
    const values = elements(attr, 'saml:AttributeValue').map((value) => text(value) ?? '');
    attributes[name] = [...(attributes[name] ?? []), ...values];
  }
  return { ...attributes };
}

/**
 * Reads and checks the assertion the library verified (`assertionXml` is the signed bytes it returns): issuer,
 * ID, NameID, a bearer confirmation for this ACS URL within its time, the `Conditions` time window and an
 * `AuthnStatement`. The audience is checked by the library. Throws {@link SamlError}.
 */
export function checkSignedAssertion(assertionXml: string, ctx: AssertionContext): CheckedAssertion {
  const doc = parseXml(assertionXml);
  const assertion = doc && elements(doc, '/saml:Assertion')[0];
  if (!assertion) fail('SAML_RESPONSE_INVALID');
  const issuer = text(elements(assertion, 'saml:Issuer')[0]);
  if (issuer !== ctx.idpEntityId) fail('SAML_SIGNATURE_INVALID');
  const assertionId = attribute(assertion, 'ID');
  const subject = elements(assertion, 'saml:Subject')[0];
  const nameIdElement = subject && elements(subject, 'saml:NameID')[0];
  const nameId = text(nameIdElement);
  const conditions = elements(assertion, 'saml:Conditions');
  const authn = elements(assertion, 'saml:AuthnStatement');
  if (!assertionId || !subject || !nameId || conditions.length !== 1 || authn.length === 0)
    fail('SAML_RESPONSE_INVALID');
  const confirmation = bearerConfirmation(subject, ctx);
  const conditionsEnd = time(conditions[0], 'NotOnOrAfter');
  const conditionsError = timeError(ctx, time(conditions[0], 'NotBefore'), conditionsEnd);
  if (conditionsError) fail(conditionsError);
  const attributes = attributesOf(assertion);
  const nameIdFormat = attribute(nameIdElement, 'Format');
  const email =
    nameIdFormat === EMAIL_FORMAT ? nameId : EMAIL_ATTRIBUTES.map((name) => attributes[name]?.[0]).find(Boolean);
  return {
    issuer,
    assertionId,
    nameId,
    ...(nameIdFormat !== undefined && { nameIdFormat }),
    ...(email !== undefined && { email }),
    attributes,
    ...(attribute(authn[0], 'SessionIndex') !== undefined && { sessionIndex: attribute(authn[0], 'SessionIndex') }),
    notOnOrAfterMs: Math.min(confirmation.notOnOrAfter, conditionsEnd ?? Infinity),
    ...(attribute(confirmation.data, 'InResponseTo') !== undefined && {
      inResponseTo: attribute(confirmation.data, 'InResponseTo'),
    }),
  };
}
