/**
 * @simplewebauthn/server, imported on the first passkey ceremony: an app that never offers passkeys does not load
 * it (nor its X.509 and ASN.1 dependencies) when it imports `@framework/auth`.
 * @internal
 * @module
 */

type WebAuthnServer = typeof import('@simplewebauthn/server') & {
  isoBase64URL: (typeof import('@simplewebauthn/server/helpers'))['isoBase64URL'];
};

let loaded: Promise<WebAuthnServer> | undefined;

/** The WebAuthn server library, loaded once. */
export function webAuthn(): Promise<WebAuthnServer> {
  loaded ??= Promise.all([import('@simplewebauthn/server'), import('@simplewebauthn/server/helpers')]).then(
    ([server, helpers]) => ({ ...server, isoBase64URL: helpers.isoBase64URL }),
  );
  return loaded;
}
