/**
 * `Accept-Language` parsing and lookup (RFC 9110 §12.5.4, RFC 4647 §3.4): weights, `*`, region fallback, and a
 * parser that stays cheap and never throws on any input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_RANGES, lookupLocale, negotiateLocale, parseAcceptLanguage } from './accept-language.js';

const SUPPORTED = ['en', 'de', 'fr', 'es', 'ja'];

describe('parseAcceptLanguage', () => {
  it('orders ranges by weight, keeping the header order among equal weights', () => {
    expect(parseAcceptLanguage('fr;q=0.5, de-AT, *;q=0.1, ja')).toStrictEqual([
      { range: 'de-at', q: 1 },
      { range: 'ja', q: 1 },
      { range: 'fr', q: 0.5 },
      { range: '*', q: 0.1 },
    ]);
  });

  it('drops q=0 ranges (not acceptable) and malformed entries', () => {
    expect(parseAcceptLanguage('de;q=0, en;q=0.000, fr;q=1.5, es;q=abc, 12, ja;q=0.001')).toStrictEqual([
      { range: 'ja', q: 0.001 },
    ]);
  });

  it('answers [] for no header', () => {
    expect(parseAcceptLanguage(null)).toStrictEqual([]);
    expect(parseAcceptLanguage('')).toStrictEqual([]);
  });

  it(`reads at most ${MAX_RANGES} ranges of a long header`, () => {
    const header = Array.from({ length: 10_000 }, () => 'de').join(',');
    expect(parseAcceptLanguage(header).length).toBeLessThanOrEqual(MAX_RANGES);
    expect(parseAcceptLanguage(`${'x'.repeat(100_000)},de`)).toStrictEqual([]);
  });

  it('never throws, and only gives well-formed ranges with 0 < q <= 1 in descending order (any string)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), acceptLanguageHeader()), (header) => {
        const ranges = parseAcceptLanguage(header);
        expect(ranges.length).toBeLessThanOrEqual(MAX_RANGES);
        for (const [i, r] of ranges.entries()) {
          expect(r.range).toMatch(/^(\*|[a-z]{1,8}(-[a-z0-9]{1,8})*)$/);
          expect(r.q).toBeGreaterThan(0);
          expect(r.q).toBeLessThanOrEqual(1);
          if (i > 0) expect(r.q).toBeLessThanOrEqual(ranges[i - 1]!.q);
        }
      }),
    );
  });

  it('negotiates one of the supported locales or the fallback, for any header', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), acceptLanguageHeader()), (header) => {
        expect([...SUPPORTED, 'fallback']).toContain(negotiateLocale(header, SUPPORTED, 'fallback'));
      }),
    );
  });
});

/** Well-formed headers: ranges from a small set (so they hit the supported ones) with optional weights. */
function acceptLanguageHeader() {
  const range = fc.constantFrom('de', 'DE-at', 'en-GB', 'fr-CA', 'ja-JP', 'es', 'it', 'pt-BR', '*', 'zh-Hant-TW');
  const weight = fc.option(fc.constantFrom('0', '0.1', '0.5', '0.999', '1', '1.000'), { nil: undefined });
  return fc
    .array(fc.tuple(range, weight), { maxLength: 8 })
    .map((items) => items.map(([r, q]) => (q === undefined ? r : `${r};q=${q}`)).join(', '));
}

describe('negotiateLocale', () => {
  it('falls back from a region to its language (de-AT → de)', () => {
    expect(negotiateLocale('de-AT', SUPPORTED, 'en')).toBe('de');
    expect(negotiateLocale('ja-JP,en;q=0.5', SUPPORTED, 'en')).toBe('ja');
  });

  it('honours the weights, not the order', () => {
    expect(negotiateLocale('en;q=0.4, fr;q=0.9, de;q=0.6', SUPPORTED, 'en')).toBe('fr');
  });

  it('takes the next range when the best one is not supported', () => {
    expect(negotiateLocale('it, es;q=0.8', SUPPORTED, 'en')).toBe('es');
  });

  it('answers the fallback for an unknown language, for `*`, and for no header', () => {
    expect(negotiateLocale('it, pt', SUPPORTED, 'en')).toBe('en');
    expect(negotiateLocale('*', SUPPORTED, 'de')).toBe('de');
    expect(negotiateLocale(undefined, SUPPORTED, 'en')).toBe('en');
  });

  it('never picks a language the header marks q=0', () => {
    expect(negotiateLocale('de;q=0, fr;q=0.1', SUPPORTED, 'en')).toBe('fr');
  });

  it('matches case-insensitively and answers the tag as configured', () => {
    expect(lookupLocale('PT-br', ['en', 'pt-BR'])).toBe('pt-BR');
    expect(lookupLocale('pt-BR-x-private', ['en', 'pt-BR'])).toBe('pt-BR');
    expect(lookupLocale('pt', ['en', 'pt-BR'])).toBeUndefined();
  });
});
