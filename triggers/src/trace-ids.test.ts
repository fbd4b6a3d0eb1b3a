import { describe, expect, it, vi } from 'vitest';
import { newTraceId, randomHex } from './trace.js';

describe('randomHex (W3C trace-context ids)', () => {
  it('is never all zeros, even when the random source gives zeros', () => {
    // The first refill of the byte pool comes back all zeros; the id must be drawn from the next one.
    const spy = vi
      .spyOn(crypto, 'getRandomValues')
      .mockImplementationOnce(((array: Uint8Array) => array.fill(0)) as typeof crypto.getRandomValues);
    try {
      const id = newTraceId();
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(id).not.toBe('0'.repeat(32));
      expect(spy).toHaveBeenCalledTimes(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('gives lowercase hex of the asked length, and distinct ids across many pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2_000; i++) {
      const id = randomHex(8);
      expect(id).toMatch(/^[0-9a-f]{16}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(2_000);
    expect(randomHex(1)).toMatch(/^[0-9a-f]{2}$/);
    // Every byte value but zero (an all-zero id is invalid) appears as its two digits; a wrong table would miss
    // some. 8 000 draws miss one of 255 values with a probability near 1e-11.
    const digits = new Set(Array.from({ length: 8_000 }, () => randomHex(1)));
    expect(digits.size).toBe(255);
    expect(digits.has('00')).toBe(false);
  });
});
