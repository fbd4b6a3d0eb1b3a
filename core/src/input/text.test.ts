/**
 * The shared address and name parsers: property tests over generated strings (fast-check) with an oracle of
 * hostile code points written out independently of the parser's regular expressions, plus the limits and the
 * characters names may carry in context.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AuthError } from '../errors.js';
import { displayNameOrNull, parseDisplayName, parseEmailAddress, requireEmailAddress } from './text.js';

/** Code points that must never be accepted, listed by hand (not derived from the parser). */
const HOSTILE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x00, 0x1f], // C0 controls, NUL included
  [0x7f, 0x9f], // DEL and C1 controls
  [0xad, 0xad], // soft hyphen
  [0x34f, 0x34f], // combining grapheme joiner
  [0x61c, 0x61c], // Arabic letter mark
  [0x115f, 0x1160], // Hangul fillers
  [0x17b4, 0x17b5], // Khmer inherent vowels
  [0x180e, 0x180e], // Mongolian vowel separator
  [0x200b, 0x200f], // zero-width space, ZWNJ, ZWJ, LRM, RLM
  [0x2028, 0x2029], // line and paragraph separators
  [0x202a, 0x202e], // bidi embeddings and overrides
  [0x2060, 0x2064], // word joiner, invisible operators
  [0x2066, 0x2069], // bidi isolates
  [0x206a, 0x206f], // deprecated format characters
  [0x3164, 0x3164], // Hangul filler
  [0xd800, 0xdfff], // lone surrogates
  [0xe000, 0xf8ff], // private use
  [0xfdd0, 0xfdef], // noncharacters
  [0xfeff, 0xfeff], // zero-width no-break space (BOM)
  [0xffa0, 0xffa0], // half-width Hangul filler
  [0xfff0, 0xfff8], // unassigned specials
  [0xfff9, 0xfffb], // interlinear annotations
  [0xfffe, 0xffff], // noncharacters
  [0x1bca0, 0x1bca3], // shorthand format controls
  [0x1d173, 0x1d17a], // musical format controls
  [0xe0000, 0xe007f], // tags (invisible ASCII)
  [0xf0000, 0xffffd], // supplementary private use
];

/** Code points names may carry in context (joiners, emoji variation selectors): refused in addresses always. */
const CONTEXTUAL = new Set([0x200c, 0x200d, 0xfe0e, 0xfe0f]);

const isHostile = (cp: number) => HOSTILE_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi);
const hostileIn = (text: string, allowContextual = false) =>
  [...text].some((c) => {
    const cp = c.codePointAt(0)!;
    return isHostile(cp) && !(allowContextual && CONTEXTUAL.has(cp));
  });

const hostile = (excludeContextual: boolean) =>
  fc
    .constantFrom(...HOSTILE_RANGES)
    .chain(([lo, hi]) => fc.integer({ min: lo, max: hi }))
    .filter((cp) => !(excludeContextual && CONTEXTUAL.has(cp)))
    .map((cp) => String.fromCodePoint(cp));

const anyText = fc.string({ unit: 'binary', maxLength: 40 });
const plainAddress = fc.emailAddress().filter((a) => new TextEncoder().encode(a).length <= 254);

/**
 * A string with a hostile character inserted somewhere: at an edge, inside, or around `@`. Tab, line feed and the
 * other ASCII whitespace controls are trimmed at the edges like spaces, so they go between two letters.
 */
const withHostile = (base: fc.Arbitrary<string>, excludeContextual: boolean) =>
  fc.tuple(base, hostile(excludeContextual), fc.nat()).map(([text, bad, at]) => {
    const points = [...text];
    const i = at % (points.length + 1);
    const inserted = /^[\t\n\v\f\r]$/.test(bad) ? `x${bad}x` : bad;
    return [...points.slice(0, i), inserted, ...points.slice(i)].join('');
  });

const refusedName = (value: string) => {
  try {
    parseDisplayName(value, { maxLength: 200 });
    return false;
  } catch (error) {
    return error instanceof AuthError && error.code === 'INVALID_REQUEST' && error.status === 400;
  }
};

describe('parseEmailAddress', () => {
  it('accepts plain addresses, trimmed and lower-cased', () => {
    fc.assert(
      fc.property(plainAddress, (address) => {
        expect(parseEmailAddress(`  ${address.toUpperCase()}\t`)).toBe(address.toLowerCase());
      }),
    );
  });

  it('refuses any string holding a control, bidi, invisible, private-use or unassigned character', () => {
    fc.assert(
      fc.property(fc.oneof(withHostile(plainAddress, false), withHostile(anyText, false)), (value) => {
        expect(parseEmailAddress(value)).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('returns only addresses free of such characters and whitespace, and parses its output to itself', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          anyText,
          plainAddress,
          fc.tuple(anyText, anyText).map(([a, b]) => `${a}@${b}`),
        ),
        (v) => {
          const address = parseEmailAddress(v);
          if (address === null) return;
          expect(hostileIn(address)).toBe(false);
          expect(address).not.toMatch(/[\s,;<>"\\()]/u);
          expect(address.split('@')).toHaveLength(2);
          expect(parseEmailAddress(address)).toBe(address);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('holds the RFC 5321 limits in UTF-8 octets: 64 for the local part, 255 for the domain, 254 in all', () => {
    const domain = (n: number) => `${'d'.repeat(n - 4)}.com`;
    expect(parseEmailAddress(`${'a'.repeat(64)}@example.com`)).not.toBeNull();
    expect(parseEmailAddress(`${'a'.repeat(65)}@example.com`)).toBeNull();
    expect(parseEmailAddress(`${'é'.repeat(33)}@example.com`)).toBeNull(); // 66 octets
    expect(parseEmailAddress(`a@${domain(252)}`)).not.toBeNull(); // 254 in all
    expect(parseEmailAddress(`ab@${domain(252)}`)).toBeNull(); // 255 in all
  });

  it('refuses zero or several @, empty parts, inner whitespace of any kind and header specials', () => {
    for (const value of [
      'ada',
      '@example.com',
      'ada@',
      'a@b@c',
      'ada lovelace@example.com',
      'ada\u00a0@example.com',
      'ada@exam\u3000ple.com',
      'ada@example.com,eve@evil.test',
      'ada@example.com;eve@evil.test',
      'Ada <ada@example.com>',
      '"ada"@example.com',
      'ada(comment)@example.com',
      'undo-email-change:user-1:eve@evil.test',
      'ada@[192.0.2.1]',
      'a]da@example.com',
      'ada\\@example.com',
      '\uFEFFada@example.com',
      'ada@example.com\u2028',
      'ada@example.com\0',
      'ada\n@example.com',
      'ada@exa\tmple.com',
    ])
      expect(parseEmailAddress(value), JSON.stringify(value)).toBeNull();
    expect(parseEmailAddress(42)).toBeNull();
    expect(parseEmailAddress(null)).toBeNull();
  });

  it('accepts internationalized addresses in NFC (RFC 6532)', () => {
    expect(parseEmailAddress('Jose\u0301@Example.com')).toBe('jos\u00e9@example.com');
    expect(parseEmailAddress('用户@例子.广告')).toBe('用户@例子.广告');
  });

  it('requireEmailAddress throws INVALID_REQUEST naming the field', () => {
    expect(() => requireEmailAddress('ada\u202E@example.com', 'newEmail')).toThrow(/`newEmail`/);
    expect(requireEmailAddress(' Ada@Example.com ')).toBe('ada@example.com');
  });
});

describe('parseDisplayName', () => {
  it('refuses any name holding a control, bidi, invisible, private-use or unassigned character', () => {
    fc.assert(
      fc.property(fc.oneof(withHostile(fc.constant('Ada Lovelace'), true), withHostile(anyText, true)), (v) => {
        expect(refusedName(v)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('returns only names free of such characters, and parses its output to itself', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, fc.string({ unit: 'grapheme', maxLength: 30 })), (value) => {
        let name: string | null;
        try {
          name = parseDisplayName(value, { maxLength: 200 });
        } catch {
          return;
        }
        if (name === null) return;
        expect(hostileIn(name, true)).toBe(false);
        expect(name).toBe(name.trim());
        expect(parseDisplayName(name, { maxLength: 200 })).toBe(name);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps ordinary names, trims them and reads a blank one as no name', () => {
    expect(parseDisplayName('  Ada Lovelace ', { maxLength: 100 })).toBe('Ada Lovelace');
    expect(parseDisplayName('Zoë O’Brien-Łukasz', { maxLength: 100 })).toBe('Zoë O’Brien-Łukasz');
    expect(parseDisplayName('   ', { maxLength: 100 })).toBeNull();
    expect(parseDisplayName(undefined, { maxLength: 100 })).toBeNull();
    expect(parseDisplayName('Zoe\u0308', { maxLength: 100 })).toBe('Zoë'); // NFC
  });

  it('refuses with a message naming the field and the character, and refuses names over the limit', () => {
    expect(() => parseDisplayName('Ada\u202Eecalevol', { maxLength: 100 })).toThrow(
      '`name` contains an invisible, control or direction character (U+202E)',
    );
    expect(() => parseDisplayName('Acme\u200B', { maxLength: 100, field: 'organization name' })).toThrow(
      /`organization name`.*U\+200B/,
    );
    expect(parseDisplayName('é'.repeat(10), { maxLength: 10 })).toBe('é'.repeat(10));
    expect(() => parseDisplayName('é'.repeat(11), { maxLength: 10 })).toThrow(/at most 10/);
    expect(() => parseDisplayName(42, { maxLength: 10 })).toThrow(/must be text/);
  });

  it('accepts joiners only where a script or an emoji sequence needs them', () => {
    const ok = (v: string) => parseDisplayName(v, { maxLength: 100 });
    expect(ok('می\u200Cخواهم')).toBe('می\u200Cخواهم'); // Persian ZWNJ between Arabic letters
    expect(ok('क्\u200Dष')).toBe('क्\u200Dष'); // Devanagari ZWJ after a virama
    expect(ok('Ada 👩\u200D💻')).toBe('Ada 👩\u200D💻'); // emoji ZWJ sequence
    expect(ok('Ada ❤\uFE0F')).toBe('Ada ❤\uFE0F');
    expect(ok('👩🏽\u200D💻 ❤\uFE0F\u200D🔥')).toBe('👩🏽\u200D💻 ❤\uFE0F\u200D🔥');
    for (const v of [
      'Ad\u200Cmin',
      'Ad\u200Dmin',
      'Адм\u200Cин',
      '\u200Dمی',
      'Ada \u200D',
      'Ada\uFE0F',
      '👩\u200D\u200D💻',
      'Ada\u0301\u200C\u0301min',
      '\u0301\u200Cم',
      'ک\u200C\u0301',
    ])
      expect(refusedName(v), JSON.stringify(v)).toBe(true);
  });

  it('displayNameOrNull drops a refused name instead of failing', () => {
    expect(displayNameOrNull('Ada\u202E', 100)).toBeNull();
    expect(displayNameOrNull('x'.repeat(101), 100)).toBeNull();
    expect(displayNameOrNull(' Ada ', 100)).toBe('Ada');
  });
});
