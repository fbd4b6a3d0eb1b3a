import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateKey, keyFromRequest, parseKey, secretMatches, hashSecret } from './key-format.js';

const request = (headers: Record<string, string>) => new Request('http://localhost/', { headers });

describe('API key format', () => {
  it('generated keys parse back to their parts and are unique', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { key, prefix, secret } = generateKey();
      expect(parseKey(key)).toStrictEqual({ prefix, secret });
      expect(keyFromRequest(request({ authorization: `Bearer ${key}` }))).toStrictEqual({ prefix, secret });
      expect(keyFromRequest(request({ 'x-api-key': key }))).toStrictEqual({ prefix, secret });
      seen.add(key);
    }
    expect(seen.size).toBe(200);
  });

  it('any other text is refused without throwing (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (text) => {
        const parsed = parseKey(text);
        if (parsed) expect(text).toBe(`fk_${parsed.prefix}_${parsed.secret}`);
        else expect(/^fk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/.test(text)).toBe(false);
      }),
    );
  });

  it('any change to a key makes it unparseable or another key (property)', () => {
    const { key } = generateKey();
    fc.assert(
      fc.property(
        fc.nat({ max: key.length - 1 }),
        fc.constantFrom('', 'x', '/', '=', '..', '%00', ' '),
        (at, insert) => {
          const changed = key.slice(0, at) + insert + key.slice(at + 1);
          fc.pre(changed !== key);
          const parsed = parseKey(changed);
          if (parsed) expect(`fk_${parsed.prefix}_${parsed.secret}`).not.toBe(key);
        },
      ),
    );
  });

  it('only the Bearer scheme or x-api-key carry a key; other schemes and tokens are ignored', () => {
    const { key } = generateKey();
    for (const authorization of [
      `Basic ${key}`,
      `Bearer`,
      `Bearer ${key} extra`,
      `Token ${key}`,
      `Bearer eyJhbGciOi.x.y`,
    ]) {
      expect(keyFromRequest(request({ authorization }))).toBeNull();
    }
    expect(keyFromRequest(request({}))).toBeNull();
  });

  it('compares the secret by its SHA-256, all or nothing', async () => {
    const { secret } = generateKey();
    const stored = await hashSecret(secret);
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(await secretMatches(secret, stored)).toBe(true);
    expect(await secretMatches(`${secret.slice(0, -1)}A`, stored)).toBe(secret.endsWith('A'));
    expect(await secretMatches(secret, stored.slice(0, -1))).toBe(false);
  });
});
