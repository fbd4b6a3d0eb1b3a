/**
 * `@framework/testing/webauthn`: a software WebAuthn authenticator for passkey tests without a browser: an ES256
 * (P-256) credential producing `none` attestations and DER signatures, in the JSON shapes a browser hands to
 * `@simplewebauthn/browser` (and the kit's passkey routes accept). For a real browser use Chromium's virtual
 * authenticator (CDP `WebAuthn.addVirtualAuthenticator`) instead.
 * @module
 */
import * as nodeCrypto from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const sha256 = (data: Uint8Array) => new Uint8Array(nodeCrypto.createHash('sha256').update(data).digest());
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};
const u32 = (n: number) => new Uint8Array([(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const b64 = (bytes: Uint8Array) => isoBase64URL.fromBuffer(bytes as Uint8Array<ArrayBuffer>);
const FLAGS = { UP: 0x01, UV: 0x04, AT: 0x40 };

/** Registration options as the kit's `POST {basePath}/passkey/register/options` answers them (the fields used). */
export interface SoftRegistrationOptions {
  /** The challenge, base64url. */
  challenge: string;
  rp: { id?: string };
  /** The user handle, base64url. */
  user: { id: string };
}

/** Authentication options as the kit's `POST {basePath}/passkey/signin/options` answers them (the fields used). */
export interface SoftAuthenticationOptions {
  /** The challenge, base64url. */
  challenge: string;
  rpId?: string;
}

/** What `navigator.credentials.create()` resolves to, as `RegistrationResponseJSON`. */
export interface SoftRegistrationResponse {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: 'platform';
}

/** What `navigator.credentials.get()` resolves to, as `AuthenticationResponseJSON`. */
export interface SoftAuthenticationResponse {
  id: string;
  rawId: string;
  type: 'public-key';
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
  clientExtensionResults: Record<string, never>;
  authenticatorAttachment: 'platform';
}

/**
 * One passkey held in memory: a fresh random 16-byte credential id and P-256 key pair per instance. It answers the
 * options JSON of the kit's passkey routes with the response JSON a browser would send back, user presence and
 * user verification flagged, and a signature counter that grows by one per assertion (unless `countSignatures` is
 * false). Node only (`node:crypto`).
 *
 * @example
 * ```ts
 * import { SoftAuthenticator } from '@framework/testing/webauthn';
 *
 * const key = new SoftAuthenticator();
 * const options = await (await ctx.fetch('/auth/passkey/register/options', { method: 'POST', headers })).json();
 * const credential = key.register(options, ctx.origin); // POST it to /auth/passkey/register/verify
 * const assertion = key.authenticate(signInOptions, ctx.origin); // later: sign in with it
 * ```
 */
export class SoftAuthenticator {
  /** The raw credential id (16 random bytes). */
  readonly credentialId = new Uint8Array(nodeCrypto.randomBytes(16));
  private readonly keys = nodeCrypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  /** The signature counter of the last assertion (0 after registration). */
  counter = 0;
  /** The user handle (base64url) registered with, sent back in assertions as `userHandle`. */
  userHandle: string | undefined;
  /** @param countSignatures When false, the counter stays 0 (many platform authenticators do that). Default true. */
  constructor(readonly countSignatures = true) {}

  /** The credential id, base64url (the `id` the kit stores and lists). */
  get id(): string {
    return b64(this.credentialId);
  }

  private cosePublicKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, isoBase64URL.toBuffer(jwk.x!)],
        [-3, isoBase64URL.toBuffer(jwk.y!)],
      ]),
    );
  }

  /** The `PublicKeyCredential` JSON around an authenticator response. */
  private credential<R>(response: R) {
    const type = 'public-key' as const;
    const authenticatorAttachment = 'platform' as const;
    return { id: this.id, rawId: this.id, type, response, clientExtensionResults: {}, authenticatorAttachment };
  }

  private clientData(type: string, challenge: string, origin: string): Uint8Array {
    return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /**
   * Answers `navigator.credentials.create()` for registration options JSON, as a browser at `origin` would.
   * @param rpId The relying party id hashed into the authenticator data. Default `options.rp.id`.
   */
  register(options: SoftRegistrationOptions, origin: string, rpId = options.rp.id!): SoftRegistrationResponse {
    this.userHandle = options.user.id;
    const clientDataJSON = this.clientData('webauthn.create', options.challenge, origin);
    const attested = concat(
      new Uint8Array(16),
      new Uint8Array([0, this.credentialId.length]),
      this.credentialId,
      this.cosePublicKey(),
    );
    const authData = concat(
      sha256(new TextEncoder().encode(rpId)),
      new Uint8Array([FLAGS.UP | FLAGS.UV | FLAGS.AT]),
      u32(this.counter),
      attested,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]) as never,
    );
    return this.credential({
      clientDataJSON: b64(clientDataJSON),
      attestationObject: b64(attestationObject),
      transports: ['internal'],
    });
  }

  /**
   * Answers `navigator.credentials.get()` for authentication options JSON, as a browser at `origin` would; counts a
   * signature first (see `countSignatures`).
   * @param rpId The relying party id hashed into the authenticator data. Default `options.rpId`.
   */
  authenticate(options: SoftAuthenticationOptions, origin: string, rpId = options.rpId!): SoftAuthenticationResponse {
    if (this.countSignatures) this.counter++;
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, origin);
    const authData = concat(
      sha256(new TextEncoder().encode(rpId)),
      new Uint8Array([FLAGS.UP | FLAGS.UV]),
      u32(this.counter),
    );
    const signature = nodeCrypto.sign('sha256', concat(authData, sha256(clientDataJSON)), this.keys.privateKey);
    return this.credential({
      clientDataJSON: b64(clientDataJSON),
      authenticatorData: b64(authData),
      signature: b64(new Uint8Array(signature)),
      ...(this.userHandle ? { userHandle: this.userHandle } : {}),
    });
  }
}
