/**
 * The SAML 2.0 service provider of `sso()`: SP metadata, the AuthnRequest (HTTP-Redirect binding) and the
 * validation of a response posted to the ACS URL (HTTP-POST binding), on @node-saml/node-saml.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { SAML, SamlStatusError, ValidateInResponseTo, type SamlConfig } from '@node-saml/node-saml';
import {
  checkEncryptionAlgorithms,
  checkEnvelope,
  checkSignedAssertion,
  isEncrypted,
  readEnvelope,
  type AssertionContext,
} from './assertion.js';
import { SamlError, type SamlErrorCode } from './errors.js';
import type { SamlProfile, SamlServiceProviderOptions } from './types.js';

const DEFAULT_SKEW_SECONDS = 60;
const MAX_SKEW_SECONDS = 600;
const DEFAULT_REQUEST_TTL_SECONDS = 600;

/**
 * The library's configuration. Its own time checks are off (`acceptedClockSkewMs: -1`: it reads the wall clock,
 * and every time check here runs on the injected `now`), and so is its `InResponseTo` cache (the request store
 * takes ids once). It verifies the signature of the assertion (`wantAssertionsSigned`, against the IdP's
 * certificates only, never a key carried in the message) and the audience.
 */
function libraryConfig(o: SamlServiceProviderOptions, requestId?: string): SamlConfig {
  const { signing, encryption } = o.keys ?? {};
  return {
    issuer: o.sp.entityId,
    callbackUrl: o.sp.acsUrl,
    entryPoint: o.idp.ssoUrl,
    idpCert: o.idp.certificates,
    audience: o.sp.entityId,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: -1,
    validateInResponseTo: ValidateInResponseTo.never,
    disableRequestedAuthnContext: true,
    signatureAlgorithm: signing?.signatureAlgorithm ?? 'sha256',
    // With a signing key every AuthnRequest is signed (HTTP-Redirect: SigAlg and Signature over the query string).
    ...(signing && { privateKey: signing.privateKey, publicCert: signing.certificate }),
    // With a decryption key an EncryptedAssertion is decrypted, then its signature verified inside.
    ...(encryption && { decryptionPvk: encryption.privateKey }),
    ...(requestId !== undefined && { generateUniqueId: () => requestId }),
  };
}

/** The code for an error the library threw; its message is read only to choose the code, never passed on. */
function libraryErrorCode(error: unknown): SamlErrorCode {
  if (error instanceof SamlError) return error.code;
  if (error instanceof SamlStatusError || !(error instanceof Error)) return 'SAML_RESPONSE_INVALID';
  if (/audience/i.test(error.message)) return 'SAML_AUDIENCE_MISMATCH';
  if (/signature|signed/i.test(error.message)) return 'SAML_SIGNATURE_INVALID';
  return 'SAML_RESPONSE_INVALID';
}

/** The assertion XML the library verified (only its signed bytes), or the refusal its error maps to. */
async function verifiedAssertion(saml: SAML, samlResponse: string): Promise<string> {
  try {
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
    const assertion = profile?.getAssertionXml?.();
    if (!assertion) throw new SamlError('SAML_RESPONSE_INVALID');
    return assertion;
  } catch (error) {
    throw new SamlError(libraryErrorCode(error));
  }
}

/**
 * A SAML 2.0 service provider for one IdP (Web Browser SSO profile, SAML 2.0 Profiles §4.1).
 *
 * `validatePostResponse` accepts a response only when all of these hold, else throws {@link SamlError}:
 * - the assertion is signed by one of `idp.certificates` (the library: exactly one assertion, the signature
 *   enveloped and referencing it, only signed bytes read) and its `Issuer` — and the response's, if present — is
 *   `idp.entityId` (`SAML_SIGNATURE_INVALID`);
 * - its `AudienceRestriction` names `sp.entityId` (`SAML_AUDIENCE_MISMATCH`);
 * - the response's `Destination` (if present) and a bearer confirmation's `Recipient` are `sp.acsUrl`
 *   (`SAML_RECIPIENT_MISMATCH`);
 * - `NotBefore`/`NotOnOrAfter` of the conditions and the confirmation hold on `now()` give or take the skew
 *   (`SAML_NOT_YET_VALID`, `SAML_EXPIRED`);
 * - the assertion id was not accepted before (`SAML_REPLAYED`; remembered until it expires);
 * - a signed `InResponseTo` names a request from `authnRequestUrl` not answered yet, and the response's own
 *   `InResponseTo` is the same (`SAML_IN_RESPONSE_TO_MISMATCH`); without one, `allowIdpInitiated` must be on
 *   (`SAML_IDP_INITIATED_DISABLED`);
 * - otherwise well-formed with a `Success` status, a NameID and an AuthnStatement (`SAML_RESPONSE_INVALID`).
 *
 * @param o - See {@link SamlServiceProviderOptions}: `clockSkewSeconds` defaults to 60 (at most 600),
 *   `allowIdpInitiated` to `false`, `requestTtlSeconds` to 600.
 * @returns `{ metadataXml, authnRequestUrl, validatePostResponse }`.
 * @example
 * ```ts
 * const sp = createSamlServiceProvider({
 *   sp: { entityId: 'https://app.example.com/sso/saml/acme', acsUrl: 'https://app.example.com/sso/saml/acme/acs' },
 *   idp: parseIdpMetadata(metadataXml),
 *   now: Date.now,
 *   ...createMemorySamlStores(Date.now),
 * });
 * const { url } = await sp.authnRequestUrl({ relayState: 'opaque-state' }); // redirect the browser there
 * const profile = await sp.validatePostResponse(Object.fromEntries(await request.formData()) as never);
 * ```
 */
export function createSamlServiceProvider(o: SamlServiceProviderOptions): {
  metadataXml(): string;
  authnRequestUrl(input: { relayState: string }): Promise<{ url: string; requestId: string }>;
  validatePostResponse(body: { SAMLResponse?: string; RelayState?: string }): Promise<SamlProfile>;
} {
  const skewMs = Math.min(Math.max(o.clockSkewSeconds ?? DEFAULT_SKEW_SECONDS, 0), MAX_SKEW_SECONDS) * 1000;
  const requestTtlMs = (o.requestTtlSeconds ?? DEFAULT_REQUEST_TTL_SECONDS) * 1000;
  const saml = new SAML(libraryConfig(o));

  return {
    // The library lists AES-CBC among the encryption methods too; only the AES-GCM ones are accepted here.
    metadataXml: () =>
      saml
        .generateServiceProviderMetadata(o.keys?.encryption?.certificate ?? null, o.keys?.signing?.certificate ?? null)
        .replace(/\s*<EncryptionMethod Algorithm="http:\/\/www\.w3\.org\/2001\/04\/xmlenc#aes\d+-cbc"\/>/g, ''),

    async authnRequestUrl({ relayState }) {
      const requestId = `_${randomBytes(20).toString('hex')}`;
      await o.requests.save(requestId, o.now() + requestTtlMs);
      const url = await new SAML(libraryConfig(o, requestId)).getAuthorizeUrlAsync(relayState, undefined, {});
      return { url, requestId };
    },

    async validatePostResponse(body) {
      if (typeof body.SAMLResponse !== 'string' || body.SAMLResponse === '')
        throw new SamlError('SAML_RESPONSE_INVALID');
      const response = readEnvelope(Buffer.from(body.SAMLResponse, 'base64').toString('utf8'));
      if (o.keys?.encryption?.requireEncryptedAssertions && !isEncrypted(response))
        throw new SamlError('SAML_RESPONSE_INVALID');
      checkEncryptionAlgorithms(response);
      const signedAssertion = await verifiedAssertion(saml, body.SAMLResponse);
      const ctx: AssertionContext = { spAcsUrl: o.sp.acsUrl, idpEntityId: o.idp.entityId, nowMs: o.now(), skewMs };
      const envelope = checkEnvelope(response, ctx);
      const assertion = checkSignedAssertion(signedAssertion, ctx);
      if (envelope.inResponseTo !== undefined && envelope.inResponseTo !== assertion.inResponseTo)
        throw new SamlError('SAML_IN_RESPONSE_TO_MISMATCH');
      if (assertion.inResponseTo === undefined && !o.allowIdpInitiated)
        throw new SamlError('SAML_IDP_INITIATED_DISABLED');
      if (!(await o.replay.remember(assertion.assertionId, assertion.notOnOrAfterMs + skewMs)))
        throw new SamlError('SAML_REPLAYED');
      if (assertion.inResponseTo !== undefined && !(await o.requests.take(assertion.inResponseTo)))
        throw new SamlError('SAML_IN_RESPONSE_TO_MISMATCH');
      return assertion;
    },
  };
}
