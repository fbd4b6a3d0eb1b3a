/**
 * A software WebAuthn authenticator for in-process tests: an ES256 (P-256)
 * credential producing `none` attestations and DER signatures, in the JSON
 * shapes browsers hand to @simplewebauthn/browser. Real browsers are covered
 * by the Chromium virtual-authenticator tests of the example app.
 * @internal
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

export class SoftAuthenticator {
  readonly credentialId = new Uint8Array(nodeCrypto.randomBytes(16));
  private readonly keys = nodeCrypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  counter = 0;
  userHandle: string | undefined;
  /** When false, the counter stays 0 (many platform authenticators do that). */
  constructor(readonly countSignatures = true) {}

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

  private clientData(type: string, challenge: string, origin: string): Uint8Array {
    return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** Answers `navigator.credentials.create()` for registration options JSON. */
  register(
    options: { challenge: string; rp: { id?: string }; user: { id: string } },
    origin: string,
    rpId = options.rp.id!,
  ) {
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
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Answers `navigator.credentials.get()` for authentication options JSON. */
  authenticate(options: { challenge: string; rpId?: string }, origin: string, rpId = options.rpId!) {
    if (this.countSignatures) this.counter++;
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, origin);
    const authData = concat(
      sha256(new TextEncoder().encode(rpId)),
      new Uint8Array([FLAGS.UP | FLAGS.UV]),
      u32(this.counter),
    );
    const signature = nodeCrypto.sign('sha256', concat(authData, sha256(clientDataJSON)), this.keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64(clientDataJSON),
        authenticatorData: b64(authData),
        signature: b64(new Uint8Array(signature)),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
