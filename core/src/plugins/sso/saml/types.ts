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
