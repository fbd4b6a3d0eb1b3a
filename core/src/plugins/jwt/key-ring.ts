/**
 * The signing-key ring of the `jwt()` plugin: which stored key signs now,
 * which public keys are published, and rotation (on schedule, race-free
 * across instances through the storage's unique `generation`).
 *
 * Timeline of one rotation at time R (key n+1 created):
 * - from R, key n+1 is published in the JWKS;
 * - from R + activationDelay, key n+1 signs (verifiers that cached the old
 *   JWKS have had time to see the new key);
 * - until R + activationDelay + gracePeriod, key n stays published, so the
 *   tokens it signed keep verifying; after that it is deleted.
 * @internal
 * @module
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { TokenCipher } from '../../storage/token-cipher.js';
import type { JwksStorage, JwtSigningAlgorithm, StoredSigningKey } from './storage/types.js';

/** Settings of a key ring; every duration in seconds. */
export interface KeyRingOptions {
  storage: JwksStorage;
  algorithm: JwtSigningAlgorithm;
  rotateEvery: number;
  gracePeriod: number;
  activationDelay: number;
  cipher: TokenCipher;
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
}

/** A key ready to sign with. */
export interface SigningKey {
  kid: string;
  alg: JwtSigningAlgorithm;
  key: CryptoKey;
}

export interface KeyRing {
  /** The key that signs now; creates the first key, or the next one when the newest is older than `rotateEvery`. */
  signingKey(): Promise<SigningKey>;
  /** Creates the next key now (published at once, signing after `activationDelay`); returns the newest stored key. */
  rotate(): Promise<StoredSigningKey>;
  /** The public JWKs to publish: every key not yet past its grace period, newest first. */
  publicKeys(): Promise<JWK[]>;
}

/** How long the key list behind `publicKeys()` is reused, in ms (well below the activation delay a new key waits). */
const PUBLISHED_TTL_MS = 5_000;

/** The AES-GCM additional data of a key's sealed private JWK: a sealed key copied into another row does not open. */
const placeOf = (kid: string) => `framework.auth jwt signing key\u0000${kid}`;

/**
 * The key that signs at `now` in `keys` (highest generation first): the
 * newest one active for `activationDelay`, or the oldest when none is (the
 * very first key signs at once).
 */
export function activeKey(
  keys: readonly StoredSigningKey[],
  now: number,
  activationDelayMs: number,
): StoredSigningKey | undefined {
  return keys.find((k) => k.createdAt.getTime() + activationDelayMs <= now) ?? keys.at(-1);
}

/** Splits `keys` (highest generation first) into those still published at `now` and those past their grace period. */
export function publication(
  keys: readonly StoredSigningKey[],
  now: number,
  activationDelayMs: number,
  graceMs: number,
) {
  const published: StoredSigningKey[] = [];
  const expired: StoredSigningKey[] = [];
  keys.forEach((key, i) => {
    const successor = keys[i - 1];
    const retiredAt = successor ? successor.createdAt.getTime() + activationDelayMs : Infinity;
    (retiredAt + graceMs > now ? published : expired).push(key);
  });
  return { published, expired };
}

/** Builds a key ring over `options.storage`. */
export function createKeyRing(options: KeyRingOptions): KeyRing {
  const { storage, cipher } = options;
  const now = options.now ?? Date.now;
  const delayMs = options.activationDelay * 1000;
  const graceMs = options.gracePeriod * 1000;
  const imported = new Map<string, Promise<CryptoKey | null>>();
  let rotating: Promise<StoredSigningKey> | undefined;
  // The key list behind the public JWKS, read at most every PUBLISHED_TTL_MS, so a flood of
  // `GET /jwks` does not reach the storage; a rotation in this process drops it at once.
  let published: { at: number; keys: Promise<StoredSigningKey[]> } | undefined;

  async function generate(generation: number): Promise<StoredSigningKey> {
    const { publicKey, privateKey } = await generateKeyPair(options.algorithm, { extractable: true });
    const bare = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(bare);
    const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: options.algorithm };
    return {
      kid,
      alg: options.algorithm,
      generation,
      publicJwk: { ...bare, kid, alg: options.algorithm, use: 'sig' },
      privateKey: await cipher.encrypt(JSON.stringify(privateJwk), placeOf(kid)),
      createdAt: new Date(now()),
    };
  }

  /** Adds the generation after `newest`; when another instance took it first, the winner's key. */
  async function next(newest: StoredSigningKey | undefined): Promise<StoredSigningKey> {
    const key = await generate((newest?.generation ?? 0) + 1);
    if (!(await storage.add(key))) {
      const winner = (await storage.list())[0];
      if (!winner) throw new Error('jwt: the key storage refused a new key but holds none');
      return winner;
    }
    const { expired } = publication(await storage.list(), now(), delayMs, graceMs);
    if (expired.length > 0) await storage.remove(expired.map((k) => k.kid));
    return key;
  }

  /** One rotation at a time per process; concurrent callers share it. */
  function rotateFrom(newest: StoredSigningKey | undefined): Promise<StoredSigningKey> {
    published = undefined;
    rotating ??= next(newest).finally(() => {
      rotating = undefined;
      published = undefined;
    });
    return rotating;
  }

  const due = (newest: StoredSigningKey | undefined) =>
    !newest || newest.alg !== options.algorithm || now() - newest.createdAt.getTime() >= options.rotateEvery * 1000;

  function open(stored: StoredSigningKey): Promise<CryptoKey | null> {
    let key = imported.get(stored.kid);
    if (!key) {
      key = cipher
        .decrypt(stored.privateKey, placeOf(stored.kid))
        .then((json) =>
          json === null ? null : (importJWK(JSON.parse(json) as JWK, stored.alg) as Promise<CryptoKey>),
        );
      imported.set(stored.kid, key);
    }
    return key;
  }

  return {
    async signingKey() {
      let keys = await storage.list();
      if (due(keys[0])) {
        await rotateFrom(keys[0]);
        keys = await storage.list();
      }
      // The active key; if no configured secret opens it (the secret that sealed it
      // was rotated out), the newest key; if that fails too, a new key at once.
      for (const candidate of new Set([activeKey(keys, now(), delayMs)!, keys[0]!])) {
        const key = await open(candidate);
        if (key) return { kid: candidate.kid, alg: candidate.alg, key };
      }
      const fresh = await rotateFrom(keys[0]);
      const key = await open(fresh);
      if (!key) throw new Error('jwt: no configured secret opens the newest signing key');
      return { kid: fresh.kid, alg: fresh.alg, key };
    },
    async rotate() {
      return rotateFrom((await storage.list())[0]);
    },
    async publicKeys() {
      const at = now();
      if (!published || at - published.at >= PUBLISHED_TTL_MS || at < published.at) {
        const keys = storage.list();
        published = { at, keys };
        keys.catch(() => (published = undefined));
      }
      return publication(await published.keys, now(), delayMs, graceMs).published.map((k) => ({ ...k.publicJwk }));
    },
  };
}
