/**
 * The shapes of the SAML service provider: the IdP it trusts, the stores it needs, its options and what a valid
 * response yields.
 * @module
 */

/**
 * An identity provider, as {@link parseIdpMetadata} reads it or an organization owner enters it.
 * @example
 * ```ts
 * const idp: SamlIdpConfig = { entityId: 'https://idp.example.com', ssoUrl: 'https://idp.example.com/sso', certificates: [pem] };
 * ```
 */
export interface SamlIdpConfig {
  /** The IdP's entity id: the `Issuer` its assertions must carry. */
  entityId: string;
  /** Its SingleSignOnService URL for the HTTP-Redirect binding, where the AuthnRequest is sent. */
  ssoUrl: string;
  /** Its signing certificates, each PEM or base64 DER; an assertion signed by any of them is accepted. */
  certificates: string[];
}

/**
 * Remembers accepted assertion ids until they expire, so an assertion is accepted once (SAML 2.0 Profiles §4.1.4.5).
 * @example
 * ```ts
 * const replay: SamlReplayStore = { remember: async (id, untilMs) => db.insertIfAbsent(id, untilMs) };
 * ```
 */
export interface SamlReplayStore {
  /**
   * Records `assertionId` until `untilMs` (epoch ms) and returns `true`; returns `false` when it is already
   * recorded and not yet past its time. Must be atomic: two concurrent calls for one id never both get `true`.
   */
  remember(assertionId: string, untilMs: number): Promise<boolean>;
}

/**
 * The AuthnRequest ids this SP sent and has not seen answered, so an `InResponseTo` is accepted once.
 * @example
 * ```ts
 * const requests: SamlRequestStore = { save: async (id, until) => db.put(id, until), take: async (id) => db.deleteUnexpired(id) };
 * ```
 */
export interface SamlRequestStore {
  /** Records a request id sent now, valid until `untilMs` (epoch ms). */
  save(requestId: string, untilMs: number): Promise<void>;
  /** Removes `requestId` and returns whether it was recorded and not yet past its time. Atomic, single use. */
  take(requestId: string): Promise<boolean>;
}

/**
 * A key pair of this service provider: an RSA private key and the X.509 certificate of its public key, both PEM
 * (the certificate goes into the SP metadata for the IdP to import).
 * @example
 * ```ts
 * const pair: SamlKeyPair = { privateKey: readFileSync('sp-signing.key', 'utf8'), certificate: readFileSync('sp-signing.crt', 'utf8') };
 * ```
 */
export interface SamlKeyPair {
  /** The RSA private key, PEM (PKCS#8 or PKCS#1). */
  privateKey: string;
  /** The X.509 certificate of its public key, PEM. */
  certificate: string;
}

/**
 * This service provider's own keys, both optional.
 *
 * - `signing`: every AuthnRequest is signed (HTTP-Redirect binding, Bindings §3.4.4.1: `SigAlg` and `Signature`
 *   over the query string) with `signatureAlgorithm` (`rsa-sha256` by default, or `rsa-sha512`); the SP metadata
 *   says `AuthnRequestsSigned="true"` and carries the certificate as a `KeyDescriptor use="signing"`.
 * - `encryption`: assertions the IdP encrypts to this certificate (`EncryptedAssertion`, XML Encryption with
 *   RSA-OAEP key transport and AES-GCM or AES-CBC content) are decrypted with the private key, then held to every
 *   rule a plain assertion is (the signature is verified inside the decrypted assertion); the SP metadata carries
 *   the certificate as a `KeyDescriptor use="encryption"`. Plain signed assertions are still accepted unless
 *   `requireEncryptedAssertions`.
 * @example
 * ```ts
 * const keys: SamlSpKeys = { signing: { privateKey, certificate }, encryption: { privateKey, certificate } };
 * ```
 */
export interface SamlSpKeys {
  signing?: SamlKeyPair & {
    /** The signature's hash: `sha256` (default) or `sha512` (RSA in both cases). */
    signatureAlgorithm?: 'sha256' | 'sha512';
  };
  encryption?: SamlKeyPair & {
    /** Refuse a response whose assertion is not encrypted (`SAML_RESPONSE_INVALID`). Default `false`. */
    requireEncryptedAssertions?: boolean;
  };
}

/**
 * The options of {@link createSamlServiceProvider}.
 * @example
 * ```ts
 * const options: SamlServiceProviderOptions = {
 *   sp: { entityId: 'https://app.example.com/sso/saml/acme', acsUrl: 'https://app.example.com/sso/saml/acme/acs' },
 *   idp, now: Date.now, ...createMemorySamlStores(Date.now),
 * };
 * ```
 */
export interface SamlServiceProviderOptions {
  /** This service provider: its entity id (the audience and AuthnRequest issuer) and its ACS URL (HTTP-POST). */
  sp: { entityId: string; acsUrl: string };
  /** The identity provider it trusts. */
  idp: SamlIdpConfig;
  /** This SP's signing and decryption keys (checked by `checkSamlSpKeys`). Default: none. */
  keys?: SamlSpKeys;
  /** The clock, in epoch milliseconds: every time check uses it. */
  now: () => number;
  /** Tolerated clock difference with the IdP, in seconds, for `NotBefore` and `NotOnOrAfter`. Default 60; 0–600. */
  clockSkewSeconds?: number;
  /** Accept unsolicited responses (IdP-initiated sign-in, no `InResponseTo`). Default `false`. */
  allowIdpInitiated?: boolean;
  /** How long an AuthnRequest id waits for its answer, in seconds. Default 600 (10 minutes). */
  requestTtlSeconds?: number;
  /** Where accepted assertion ids are remembered. */
  replay: SamlReplayStore;
  /** Where sent AuthnRequest ids wait for their response. */
  requests: SamlRequestStore;
}

/**
 * What a valid response tells about the person, read from the signed assertion only.
 * @example
 * ```ts
 * const { nameId, email, attributes } = await sp.validatePostResponse(body);
 * ```
 */
export interface SamlProfile {
  /** The assertion's issuer: the IdP's entity id. */
  issuer: string;
  /** The subject's NameID, its whole text. */
  nameId: string;
  /** The NameID's `Format`, when given. */
  nameIdFormat?: string;
  /** The email: the NameID when its format is emailAddress, else the first `mail`/`email` attribute value. */
  email?: string;
  /** Every attribute of the assertion's AttributeStatements by `Name`, its text values in order. */
  attributes: Record<string, string[]>;
  /** The `SessionIndex` of the AuthnStatement, when given (for single logout). */
  sessionIndex?: string;
  /** The assertion's `ID`. */
  assertionId: string;
  /** Until when (epoch ms) the assertion may be used: the earliest of its `NotOnOrAfter`s. */
  notOnOrAfterMs: number;
  /** The AuthnRequest id this answers; absent for IdP-initiated sign-in. */
  inResponseTo?: string;
}
