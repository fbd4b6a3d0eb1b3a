import { jwtVerify, SignJWT, createLocalJWKSet } from 'jose';
import { describe, expect, it } from 'vitest';
import { tokenCipher } from '../../storage/token-cipher.js';
import { createKeyRing, type KeyRingOptions } from './key-ring.js';
import { createMemoryJwksStorage } from './storage/memory.js';
import type { JwksStorage } from './storage/types.js';

const SECRET_A = 'jwt-key-ring-secret-a-0123456789abcdef';
const SECRET_B = 'jwt-key-ring-secret-b-0123456789abcdef';
const DAY = 86_400;

/** A ring on `storage` with a clock the test moves (`clock.t`, ms). */
function ring(storage: JwksStorage, clock: { t: number }, extra: Partial<KeyRingOptions> = {}) {
  return createKeyRing({
    storage,
    algorithm: 'EdDSA',
    rotateEvery: 30 * DAY,
    gracePeriod: 7 * DAY,
    activationDelay: 300,
    cipher: tokenCipher([SECRET_A]),
    now: () => clock.t,
    ...extra,
  });
}

async function verifies(r: ReturnType<typeof ring>, token: string): Promise<boolean> {
  try {
    await jwtVerify(token, createLocalJWKSet({ keys: await r.publicKeys() }));
    return true;
  } catch {
    return false;
  }
}

async function signWith(r: ReturnType<typeof ring>): Promise<{ token: string; kid: string }> {
  const { kid, alg, key } = await r.signingKey();
  return { kid, token: await new SignJWT({}).setProtectedHeader({ alg, kid }).sign(key) };
}

describe('key ring', () => {
  it('creates the first key on demand, signs with it at once and stores its private key sealed', async () => {
    const storage = createMemoryJwksStorage();
    const r = ring(storage, { t: Date.now() });
    const first = await signWith(r);
    const [stored] = await storage.list();
    expect(stored!.kid).toBe(first.kid);
    expect(stored!.privateKey.startsWith('enc:v1:')).toBe(true);
    expect(stored!.privateKey).not.toContain('"d"');
    expect(await verifies(r, first.token)).toBe(true);
    expect((await signWith(r)).kid).toBe(first.kid);
  });

  it('rotates on schedule: the new key is published first, signs after activationDelay, and the old one stays published for the grace period', async () => {
    const storage = createMemoryJwksStorage();
    const clock = { t: Date.UTC(2030, 0, 1) };
    const r = ring(storage, clock);
    const old = await signWith(r);

    clock.t += 30 * DAY * 1000;
    const during = await signWith(r); // creates key 2, still signs with key 1
    expect(during.kid).toBe(old.kid);
    const kids = (await r.publicKeys()).map((k) => k.kid);
    expect(kids).toHaveLength(2);
    expect(kids[1]).toBe(old.kid);
    const fresh = kids[0]!;

    clock.t += 300 * 1000;
    const after = await signWith(r);
    expect(after.kid).toBe(fresh);
    expect(await verifies(r, old.token)).toBe(true);

    // Just inside the grace period (counted from when the new key began signing): still published.
    clock.t += 7 * DAY * 1000 - 1;
    expect(await verifies(r, old.token)).toBe(true);
    clock.t += 1;
    expect(await verifies(r, old.token)).toBe(false);
    expect(await verifies(r, after.token)).toBe(true);
    // The next rotation deletes keys past their grace period from storage.
    await r.rotate();
    expect((await storage.list()).map((k) => k.kid)).not.toContain(old.kid);
  });

  it('two instances rotating at once store one new key, and both sign with it', async () => {
    const storage = createMemoryJwksStorage();
    const clock = { t: Date.UTC(2030, 0, 1) };
    const a = ring(storage, clock, { activationDelay: 0 });
    const b = ring(storage, clock, { activationDelay: 0 });
    await signWith(a);
    clock.t += 31 * DAY * 1000;
    const signed = await Promise.all([signWith(a), signWith(b), signWith(a), signWith(b)]);
    expect(await storage.list()).toHaveLength(2);
    expect(new Set(signed.map((s) => s.kid)).size).toBe(1);
    await Promise.all([a.rotate(), b.rotate()]);
    expect(await storage.list()).toHaveLength(3);
  });

  it('keeps signing across a secret rotation, and moves to a new key when no secret opens the stored one', async () => {
    const storage = createMemoryJwksStorage();
    const clock = { t: Date.now() };
    const before = await signWith(ring(storage, clock));
    const rotatedSecret = ring(storage, clock, { cipher: tokenCipher([SECRET_B, SECRET_A]) });
    expect((await signWith(rotatedSecret)).kid).toBe(before.kid);
    const droppedSecret = ring(storage, clock, { cipher: tokenCipher([SECRET_B]) });
    const moved = await signWith(droppedSecret);
    expect(moved.kid).not.toBe(before.kid);
    expect((await signWith(droppedSecret)).kid).toBe(moved.kid);
    expect(await storage.list()).toHaveLength(2);
  });

  it('a sealed private key moved to another key id does not open', async () => {
    const storage = createMemoryJwksStorage();
    const clock = { t: Date.now() };
    const r = ring(storage, clock, { activationDelay: 0 });
    await r.signingKey();
    const [first] = await storage.list();
    // An attacker with write access to the table copies key 1's sealed private key under a new kid.
    await storage.add({
      ...first!,
      kid: 'attacker',
      generation: 2,
      publicJwk: { ...first!.publicJwk, kid: 'attacker' },
    });
    const { kid } = await ring(storage, clock, { activationDelay: 0 }).signingKey();
    expect(kid).not.toBe('attacker');
  });

  it('switches algorithm by rotating when the configured one changes', async () => {
    const storage = createMemoryJwksStorage();
    const clock = { t: Date.now() };
    await signWith(ring(storage, clock));
    const es = ring(storage, clock, { algorithm: 'ES256', activationDelay: 0 });
    const { token } = await signWith(es);
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toMatchObject({ alg: 'ES256' });
  });
});
